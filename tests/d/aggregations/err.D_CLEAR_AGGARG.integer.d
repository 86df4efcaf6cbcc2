/* clear() of an integer, not an aggregation */
BEGIN
{
	clear(1);
}
