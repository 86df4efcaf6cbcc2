/* a pointer to a function has nothing to load */
int (*fp)(int);

BEGIN
{
	x = fp;
	y = *fp;
}
