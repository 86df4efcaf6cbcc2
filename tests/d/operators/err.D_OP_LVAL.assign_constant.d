/* The left operand of = must be an lvalue. */
BEGIN
{
	1 = 2;
}
