/* Pointers of the same type, void pointers and 0 can be compared. */
int *ip;
int *iq;
void *vp;

BEGIN
{
	a = ip == iq;
	b = ip < iq;
	c = ip != vp;
	d = ip == 0;
	e = ip && iq;
	f = !ip || vp;
}
