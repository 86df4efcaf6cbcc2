/* %@ is for printa(), not printf() */
BEGIN
{
	printf("%@d\n", 1);
}
