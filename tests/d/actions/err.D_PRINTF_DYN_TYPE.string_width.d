/* the '*' width of printf is given a string */
BEGIN
{
	printf("%*d\n", "wide", pid);
}
