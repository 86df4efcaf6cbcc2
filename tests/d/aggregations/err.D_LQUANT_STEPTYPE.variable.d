/* the step of lquantize() must be an integer constant */
BEGIN
{
	@a = lquantize(arg0, 0, 100, arg1);
}
