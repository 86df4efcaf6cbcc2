/* lquantize() with and without a step, with an increment, and with negative bounds */
profile-997hz
{
	@nostep = lquantize(arg0 % 100, 0, 100);
	@step[cpu] = lquantize(arg0 % 1000, 0, 1000, 10);
	@incr = lquantize(arg0 % 1000, 0, 1000, 100, 2);
	@neg = lquantize((int)arg0, -50, 50, 5);
	@wide = lquantize(arg0, -2147483648, 2147352577, 65535);
}
