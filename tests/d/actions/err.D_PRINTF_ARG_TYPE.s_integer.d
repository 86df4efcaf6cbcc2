/* printf %s needs a string, not an integer */
BEGIN
{
	printf("%s\n", 1);
}
