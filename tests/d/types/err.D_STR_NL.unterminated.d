/* A string literal may not run into the end of the line. */
BEGIN
{
	s = "abc;
}
