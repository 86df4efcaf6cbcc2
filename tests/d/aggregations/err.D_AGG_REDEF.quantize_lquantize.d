/* quantize() and lquantize() are different aggregating functions */
BEGIN
{
	@a = quantize(arg0);
	@a = lquantize(arg0, 0, 10);
}
