/* the high magnitude of llquantize() must be above the low one, not equal */
BEGIN
{
	@a = llquantize(arg0, 10, 2, 2, 10);
}
