/* @a's lower bound differs between two clauses */
BEGIN
{
	@a = lquantize(arg0, 0, 100, 10);
}

END
{
	@a = lquantize(arg0, 10, 100, 10);
}
