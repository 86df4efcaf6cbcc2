/* @a's llquantize() steps per magnitude differ between two clauses */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 20);
}

END
{
	@a = llquantize(arg0, 10, 0, 6, 10);
}
