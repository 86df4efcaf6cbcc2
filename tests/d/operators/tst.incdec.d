/* Prefix and postfix ++ and -- apply to integer and pointer variables. */
int *ip;

BEGIN
{
	n = 1;
	n++;
	++n;
	n--;
	--n;
	m = n++ + ++n;
	ip++;
	--ip;
	self->c = 0;
	self->c++;
	a[1] = 5;
	a[1]--;
}
