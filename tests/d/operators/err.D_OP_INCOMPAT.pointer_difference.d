/* Subtracting pointers to different types is not allowed. */
int *ip;
char *cp;

BEGIN
{
	d = ip - cp;
}
