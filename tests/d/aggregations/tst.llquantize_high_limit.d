/* the highest magnitudes llquantize() allows: factor^(high + 2) must fit in 64 bits, as DTrace checks */
BEGIN
{
	@ten = llquantize(arg0, 10, 0, 17, 10);
	@two = llquantize(arg0, 2, 0, 61, 2);
}
