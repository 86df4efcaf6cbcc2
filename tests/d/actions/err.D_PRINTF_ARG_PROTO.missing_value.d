/* printf has two conversions and one value */
BEGIN
{
	printf("%d %s\n", pid);
}
