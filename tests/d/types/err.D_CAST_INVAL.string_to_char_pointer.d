/* A string may not be cast to a pointer type. */
BEGIN
{
	p = (char *)"abc";
}
