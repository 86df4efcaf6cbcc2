/* && requires scalar operands; a string is not one. */
BEGIN
{
	x = 1 && "abc";
}
