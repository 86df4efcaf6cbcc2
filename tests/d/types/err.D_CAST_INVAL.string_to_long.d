/* A string cannot be cast to an integer. */
BEGIN
{
	v = (long)"123";
}
