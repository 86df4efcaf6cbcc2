/* @a's llquantize() high magnitude differs between two clauses */
BEGIN
{
	@a[pid] = llquantize(arg0, 10, 0, 6, 20);
}

END
{
	@a[pid] = llquantize(arg0, 10, 0, 7, 20);
}
