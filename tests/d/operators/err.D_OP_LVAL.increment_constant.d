/* ++ needs an lvalue operand. */
BEGIN
{
	x = 5++;
}
