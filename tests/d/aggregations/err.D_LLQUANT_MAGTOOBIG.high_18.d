/* 10 to the power 18 + 2 does not fit in 64 bits, so high magnitude 18 is too big */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 18, 10);
}
