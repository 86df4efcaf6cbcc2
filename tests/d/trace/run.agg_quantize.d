/* quantize, lquantize and llquantize: ranges, labels, bars, negative values. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 40" */
trig$target:::tick
{
	@q = quantize(arg2);
	@lq = lquantize(arg0, 5, 30, 5);
	@llq = llquantize(arg2, 10, 0, 3, 10);
	@mixed = quantize(arg0 - 10);
	@neg = quantize(-arg0);
	@weighted[copyinstr(arg1)] = lquantize(arg0 % 4, 0, 4, 1, arg0);
}
