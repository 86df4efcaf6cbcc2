/* The integer constant 0 is compatible with any pointer, in = and in ?: (as C's null pointer constant). */
int *p;

BEGIN
{
	p = 0;
	q = pid ? p : 0;
	r = pid ? 0 : p;
	b = p == 0;
}
