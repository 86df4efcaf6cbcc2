/* the low magnitude of llquantize() must be an integer constant */
BEGIN
{
	@a = llquantize(arg0, 10, arg1, 6, 20);
}
