/* printa() of aggregations whose keys have different types */
BEGIN
{
	@a[1] = count();
	@b["x"] = count();
	printa(@a, @b);
}
