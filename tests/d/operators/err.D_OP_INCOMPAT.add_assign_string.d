/* += with a string operand: the operands are incompatible. */
BEGIN
{
	s = "abc";
	s += 1;
}
