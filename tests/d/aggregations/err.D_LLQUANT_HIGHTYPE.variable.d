/* the high magnitude of llquantize() must be an integer constant */
BEGIN
{
	@a = llquantize(arg0, 10, 0, arg1, 20);
}
