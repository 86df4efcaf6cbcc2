/*
 * -x agghist: count(), sum(), avg() and stddev() drawn as one histogram per
 * aggregation, a row per key, under a "key" header as wide as the keys
 * (illumos dt_aggregate_total and dt_print_datum); negative sums draw to
 * the left of a centre line.  min() and max() print as without it.
 */
/* @setup: ./build.sh */
/* @args: -q -x agghist -c "./trigger 12" */
trig$target:::tick
{
	@c[copyinstr(arg1)] = count();
	@s[arg0 % 3] = sum(arg0 - 5);
	@pos[(char)(arg0 % 2)] = sum(arg0);
	@avg[arg0 % 2, copyinstr(arg1)] = avg(arg2);
	@m = max(arg0);
	@one = count();
}

trig$target:::neg
{
	@allneg[arg1] = sum(arg0);
}
