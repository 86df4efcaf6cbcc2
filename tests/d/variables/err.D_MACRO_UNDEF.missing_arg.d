/* $2 needs a second argument on the command line. */
BEGIN
{
	x = $1 + $2;
}
