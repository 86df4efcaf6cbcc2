/*
 * quantize() at the ends of int64_t, as illumos' kernel buckets them
 * (dtrace_aggregate_quantize): 2^62 and above in the last bucket
 * (4611686018427387904), -2^62 and below in the first (its value is
 * -4611686018427387904), -2^62 + 1 in the next.  When the last bucket is
 * the only one with counts, dtrace(1) prints the empty distribution
 * around 0: dt_print_quantize stops looking for the first bucket with
 * data one short of the last and takes that for "no data" (@alone);
 * with one more value the last bucket shows (@pos).  lquantize and
 * llquantize put the extremes below and above their ranges.
 */
#pragma D option quiet

BEGIN
{
	@alone = quantize(1LL << 62);
	@pos = quantize(1LL << 62);
	@pos = quantize(0x7fffffffffffffffLL);
	@pos = quantize(1 << 30);
	@neg = quantize(-1LL << 63);
	@neg = quantize(-(1LL << 62));
	@neg = quantize(-(1LL << 62) + 1);
	@neg = quantize(-(1LL << 60));
	@lin = lquantize(0x7fffffffffffffffLL, -2, 2, 1);
	@lin = lquantize(-1LL << 63, -2, 2, 1);
	@lin = lquantize(-1LL << 63, -2, 2, 1);
	@log = llquantize(0x7fffffffffffffffLL, 10, 0, 1, 10);
	@log = llquantize(-1LL << 63, 10, 0, 1, 10);
	exit(0);
}

END
{
	printa(@alone);
	printa(@pos);
	printa(@neg);
	printa(@lin);
	printa(@log);
}
