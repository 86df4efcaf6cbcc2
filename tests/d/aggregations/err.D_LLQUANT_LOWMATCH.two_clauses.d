/* @a's llquantize() low magnitude differs between two clauses */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 20);
}

END
{
	@a = llquantize(arg0, 10, 1, 6, 20);
}
