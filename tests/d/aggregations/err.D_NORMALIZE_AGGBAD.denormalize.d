/* denormalize() of an aggregation that was never assigned (DTrace shares normalize's tag) */
BEGIN
{
	denormalize(@nosuch);
}
