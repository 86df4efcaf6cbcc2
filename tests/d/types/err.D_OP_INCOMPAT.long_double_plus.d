/* no floating-point arithmetic, long double included */
long double a, b;

BEGIN
{
	c = a + b;
}
