/* ++ requires a scalar operand. */
BEGIN
{
	s = "abc";
	s++;
}
