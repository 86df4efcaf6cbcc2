/* an aggregation takes one key list, not two */
BEGIN
{
	@a[1][2] = count();
}
