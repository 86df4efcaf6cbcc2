/* Unary - requires an arithmetic operand. */
BEGIN
{
	x = -"abc";
}
