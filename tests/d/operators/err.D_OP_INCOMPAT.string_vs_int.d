/* A string cannot be compared with an integer. */
BEGIN
{
	x = execname == 7;
}
