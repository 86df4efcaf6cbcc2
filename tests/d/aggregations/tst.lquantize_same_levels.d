/* lquantize uses agree when base, step and the number of levels agree (dt_cc.c) */
BEGIN
{
	@a = lquantize(arg0, 0, 100, 10);
}

END
{
	@a = lquantize(arg0, 0, 105, 10);
}
