/* clear() of an aggregation that is never assigned */
END
{
	clear(@nosuch);
}
