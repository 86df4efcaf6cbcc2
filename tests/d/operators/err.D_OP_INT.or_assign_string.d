/* |= requires integer operands. */
BEGIN
{
	s = "abc";
	s |= 1;
}
