/* the factor of llquantize() must fit in 16 bits */
BEGIN
{
	@a = llquantize(arg0, 70000, 0, 1, 70000);
}
