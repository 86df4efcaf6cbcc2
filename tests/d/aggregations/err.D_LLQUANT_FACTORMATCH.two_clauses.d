/* @a's llquantize() factor differs between two clauses */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 20);
}

END
{
	@a = llquantize(arg0, 20, 0, 6, 20);
}
