/* the low magnitude of llquantize() must fit in 16 bits */
BEGIN
{
	@a = llquantize(arg0, 10, 70000, 70001, 10);
}
