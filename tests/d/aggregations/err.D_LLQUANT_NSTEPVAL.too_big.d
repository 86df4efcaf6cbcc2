/* the steps per magnitude of llquantize() must fit in 16 bits */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 100000);
}
