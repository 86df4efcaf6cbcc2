/* lquantize() with equal bounds has no level */
BEGIN
{
	@a = lquantize(arg0, 10, 10);
}
