/* the upper bound of lquantize() must be an integer constant */
BEGIN
{
	@a = lquantize(arg0, 0, arg1);
}
