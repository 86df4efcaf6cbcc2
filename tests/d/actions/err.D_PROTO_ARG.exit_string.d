/* exit() of a string */
BEGIN
{
	exit("failed");
}
