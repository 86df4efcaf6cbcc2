/* clear, trunc with and without a count, normalize and denormalize on aggregations of earlier clauses */
syscall:::entry
{
	@calls[probefunc] = count();
	@sizes[probefunc] = sum(arg2);
}

tick-1s
{
	normalize(@calls, 1);
	printa(@calls);
	denormalize(@calls);
	clear(@calls);
	trunc(@sizes, 10);
}

END
{
	normalize(@sizes, 1000 * 1000);
	trunc(@sizes);
	trunc(@calls, 0);
}
