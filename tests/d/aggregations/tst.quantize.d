/* quantize() with one argument and with an increment */
syscall::write:entry
{
	@sizes = quantize(arg2);
	@weighted[execname] = quantize(arg2, 10);
	@neg = quantize(-(int64_t)arg2);
}
