/* the step of lquantize() must be a positive constant, not -1 */
BEGIN
{
	@a = lquantize(arg0, 0, 100, -1);
}
