/* the lower bound of lquantize() must be an integer constant */
BEGIN
{
	x = 0;
	@a = lquantize(arg0, x, 100);
}
