/* % requires integer operands. */
BEGIN
{
	x = "abc" % 2;
}
