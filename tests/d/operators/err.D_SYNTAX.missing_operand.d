/* A binary operator needs a right operand. */
BEGIN
{
	x = 1 + ;
}
