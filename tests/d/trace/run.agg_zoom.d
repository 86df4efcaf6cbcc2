/*
 * -x aggzoom: the largest bucket or row fills 95% of the bar (38 of 40
 * '@'), the others in proportion to it, in quantize() and lquantize()
 * and, with agghist, in the rows of count() (illumos dt_quantize_total
 * and dt_aggregate_total).
 */
/* @setup: ./build.sh */
/* @args: -q -x aggzoom -x agghist -c "./trigger 12" */
trig$target:::tick
{
	@q = quantize(arg2);
	@lq = lquantize(arg0 % 4, 0, 4, 1);
	@c[arg0 < 9 ? "low" : "high"] = count();
}

