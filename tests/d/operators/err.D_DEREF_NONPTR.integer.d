/* Unary * needs a pointer operand. */
BEGIN
{
	x = 42;
	y = *x;
}
