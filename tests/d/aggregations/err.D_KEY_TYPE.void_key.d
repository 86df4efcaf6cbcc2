/* a void expression cannot be an aggregation key */
BEGIN
{
	@a[bcopy((void *)arg0, (void *)arg1, 4)] = count();
}
