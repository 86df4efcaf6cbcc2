/* Parentheses must balance. */
BEGIN
{
	x = (1 + 2;
}
