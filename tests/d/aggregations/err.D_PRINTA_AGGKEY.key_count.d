/* printa() of aggregations with different numbers of keys */
BEGIN
{
	@a[1] = count();
	@b["x", 2] = count();
	printa(@a, @b);
}
