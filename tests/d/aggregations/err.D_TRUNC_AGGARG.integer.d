/* trunc() of an integer, not an aggregation */
BEGIN
{
	trunc(1);
}
