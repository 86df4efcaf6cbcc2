/* printf %d needs an integer, not a pointer */
BEGIN
{
	printf("%d\n", (int *)0);
}
