/* llquantize() has fewer steps per magnitude than its factor */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 5);
}
