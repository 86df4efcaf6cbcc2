/* trunc( ) needs the aggregation. */
BEGIN
{
	@a = count();
	trunc();
}
