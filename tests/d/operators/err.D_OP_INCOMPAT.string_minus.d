/* A string minus an integer has no meaning. */
BEGIN
{
	x = "abc" - 1;
}
