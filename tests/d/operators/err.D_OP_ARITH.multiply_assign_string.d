/* *= needs arithmetic operands, not a string. */
BEGIN
{
	s = "abc";
	s *= 2;
}
