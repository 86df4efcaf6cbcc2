/* the steps per magnitude of llquantize() must be an integer constant */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, arg1);
}
