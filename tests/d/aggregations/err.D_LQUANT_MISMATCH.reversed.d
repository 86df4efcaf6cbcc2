/* the upper bound of lquantize() is below the lower bound */
BEGIN
{
	@a = lquantize(arg0, 100, 10);
}
