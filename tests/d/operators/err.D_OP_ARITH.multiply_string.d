/* * requires arithmetic operands. */
BEGIN
{
	x = "abc" * 2;
}
