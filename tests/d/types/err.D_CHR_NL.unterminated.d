/* A character constant may not run into the end of the line. */
BEGIN
{
	c = 'a;
}
