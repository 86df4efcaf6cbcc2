/* aggregations with keys, one for each aggregating function but quantize */
syscall::read:return
{
	@calls[execname, pid] = count();
	@bytes[execname] = sum(arg0);
	@mean[pid] = avg(arg0);
	@least = min(arg0);
	@most = max(arg0);
	@spread = stddev(arg0);
	@lin[execname] = lquantize(arg0, 0, 100, 10);
	@log = llquantize(arg0, 10, 0, 3, 10);
}
