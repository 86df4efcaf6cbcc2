/* the '*' width of printf has no argument */
BEGIN
{
	printf("%*d\n");
}
