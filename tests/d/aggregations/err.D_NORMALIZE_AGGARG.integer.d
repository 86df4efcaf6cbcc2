/* normalize() of an integer, not an aggregation */
BEGIN
{
	normalize(1, 2);
}
