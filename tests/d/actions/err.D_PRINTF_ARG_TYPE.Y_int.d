/* printf %Y needs a 64-bit integer, not an int */
BEGIN
{
	printf("%Y\n", 1);
}
