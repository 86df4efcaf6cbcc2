/* %wc: pfcheck_type "int": a char is not an int */
BEGIN
{
	printf("%wc\n", (char)65);
}
