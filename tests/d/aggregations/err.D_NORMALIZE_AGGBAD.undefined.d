/* normalize() of an aggregation that was never assigned */
BEGIN
{
	normalize(@nosuch, 1);
}
