/* 10 to the power 20 does not fit in 64 bits */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 20, 10);
}
