/* the factor of llquantize() must be an integer constant */
BEGIN
{
	@a = llquantize(arg0, arg1, 0, 6, 20);
}
