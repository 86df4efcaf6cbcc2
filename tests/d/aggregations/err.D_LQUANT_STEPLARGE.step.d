/* the step of lquantize() leaves no level between the bounds */
BEGIN
{
	@a = lquantize(arg0, 0, 10, 20);
}
