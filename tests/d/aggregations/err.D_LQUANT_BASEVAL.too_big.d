/* the lower bound of lquantize() must fit in 32 bits */
BEGIN
{
	@a = lquantize(arg0, 0x100000000, 0x100000010);
}
