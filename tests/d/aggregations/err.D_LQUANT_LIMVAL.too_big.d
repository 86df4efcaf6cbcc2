/* the upper bound of lquantize() must fit in 32 bits */
BEGIN
{
	@a = lquantize(arg0, 0, 4294967296);
}
