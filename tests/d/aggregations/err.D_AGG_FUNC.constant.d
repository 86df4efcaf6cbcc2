/* an aggregation is assigned an integer instead of an aggregating function */
BEGIN
{
	@a = 1;
}
