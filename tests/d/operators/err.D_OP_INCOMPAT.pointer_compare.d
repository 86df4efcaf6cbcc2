/* Pointers to different types cannot be compared. */
int *ip;
long *lp;

BEGIN
{
	d = ip == lp;
}
