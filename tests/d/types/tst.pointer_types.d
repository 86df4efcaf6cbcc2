/* Pointer variables, pointers to pointers and void * are declarable. */
int *ip;
int **ipp;
void *vp;
char *cp;

BEGIN
{
	x = *ip;
	y = **ipp;
	ip = *ipp;
	vp = ip;
	ok = 1 / (sizeof (ipp) == 8 && sizeof (*ip) == 4 && sizeof (*cp) == 1);
}
