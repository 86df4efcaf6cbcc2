/* the step of lquantize() must fit in 16 bits */
BEGIN
{
	@a = lquantize(arg0, 0, 1000000, 70000);
}
