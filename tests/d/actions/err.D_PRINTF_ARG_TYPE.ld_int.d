/* printf %ld needs a long, not an int */
BEGIN
{
	printf("%ld\n", 1);
}
