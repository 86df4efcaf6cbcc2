/* printf %k needs a stack, not an integer */
BEGIN
{
	printf("%k\n", 1);
}
