/*
 * -x aggpack (here by #pragma): quantize() and lquantize() each on one line
 * under one header per aggregation, as illumos's dt_print_quantize_packed
 * and dt_print_lquantize_packed: the buckets any key used (quantize), every
 * bucket (lquantize), one character a bucket scaled to the row's sum,
 * "__xxxxXX" up and "vvvvVV" for negative counts in ASCII.  count() and llquantize() print
 * as without the option.  Values by hand: ./trigger 12 fires i = 0..11,
 * names alpha beta gamma in turn, sq = i * i.
 */
/* @setup: ./build.sh */
/* @args: -q -x encoding=ascii -c "./trigger 12" */
#pragma D option aggpack

trig$target:::tick
{
	@q = quantize(arg2);
	@qk[copyinstr(arg1)] = quantize(arg0);
	@neg = quantize(-arg0);
	@mixed = quantize(arg0 - 6);
	@none = quantize(arg0, 0);
	@dec = quantize(arg0 % 3, -1);
	@lq[arg0 % 2] = lquantize(arg0, 0, 10, 2);
	@big = lquantize(arg0, 2, 4, 1);
	@llq = llquantize(arg2, 10, 0, 1, 10);
	@c = count();
}
