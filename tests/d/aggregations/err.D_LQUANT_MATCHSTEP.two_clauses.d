/* @a's step differs between two clauses (same bounds) */
BEGIN
{
	@a[execname] = lquantize(arg0, 0, 100, 10);
}

END
{
	@a[execname] = lquantize(arg0, 0, 100, 20);
}
