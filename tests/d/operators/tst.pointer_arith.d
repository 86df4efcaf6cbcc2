/* Pointer arithmetic scales by the pointee; pointer differences are long. */
int *ip;
int *iq;
char *cp;

BEGIN
{
	a = ip + 1;
	b = 2 + ip;
	c = ip - 1;
	d = iq - ip;
	ip += 3;
	ip -= 1;
	e = cp[5];
	f = *(cp + 2);
	ok = 1 / (sizeof (iq - ip) == 8);
	ok = 1 / (sizeof (ip + 1) == 8);
}
