/* the second argument of printa() without a format is not an aggregation */
BEGIN
{
	@a = count();
	printa(@a, pid);
}
