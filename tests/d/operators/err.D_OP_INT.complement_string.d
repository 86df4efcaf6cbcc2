/* ~ requires an integer operand. */
BEGIN
{
	x = ~"abc";
}
