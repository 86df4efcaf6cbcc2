/*
 * -x aggpack with -x encoding=utf8: the packed buckets are the block
 * elements U+2581 (lowest) to U+2588 (whole), and quantize() bars in eighths
 * of a cell (U+2588 down to U+258F), as illumos's dt_print_packed and
 * dt_print_quantline_utf8.  Negative buckets stay "vvvvVV".
 */
/* @setup: ./build.sh */
/* @args: -q -x aggpack -x encoding=utf8 -c "./trigger 12" */
trig$target:::tick
{
	@q = quantize(arg2);
	@neg = quantize(-arg0);
	@lq = lquantize(arg0, 0, 12, 3);
}

