/* A pointer does not compare with an integer variable. */
int *p;

BEGIN
{
	n = 5;
	b = p == n;
}
