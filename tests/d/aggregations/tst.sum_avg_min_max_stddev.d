/* sum, avg, min, max and stddev with integer, pointer and expression values */
syscall::read:return
{
	@bytes[execname] = sum(arg0);
	@mean[execname] = avg(arg0);
	@least[execname, pid] = min(arg0);
	@most[execname, pid] = max(arg0 * 2 + 1);
	@spread = stddev(timestamp - vtimestamp);
	@ptrmax = max(curthread);
}
