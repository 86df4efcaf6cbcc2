/* An array dimension is a constant expression, not only a literal. */
int a[2 + 2];

BEGIN
{
	ok = 1 / (sizeof (a) == 16);
}
