/* trunc() of an aggregation that was never assigned */
BEGIN
{
	trunc(@nosuch);
}
