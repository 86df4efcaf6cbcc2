/* the high magnitude of llquantize() is below the low magnitude */
BEGIN
{
	@a = llquantize(arg0, 10, 6, 2, 20);
}
