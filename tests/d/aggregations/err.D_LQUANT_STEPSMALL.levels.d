/* the step of lquantize() gives more than 65535 levels */
BEGIN
{
	@a = lquantize(arg0, 0, 100000, 1);
}
