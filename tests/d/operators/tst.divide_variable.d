/* Division by a variable is not checked at compile time. */
BEGIN
{
	zero = 0;
	x = 10 / zero;
	y = 10 % zero;
}
