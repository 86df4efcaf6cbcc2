/*
 * ufunc(), usym() and uaddr() of a function pointer passed as a probe
 * argument: pass_fn(c, ...) names chain`c; ufunc(arg0) as a key names the
 * function; the stack at pass_fn is pass_fn, main and the 3 frames of
 * libc and _start.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./chain 1" */
pid$target:a.out:pass_fn:entry
{
	ufunc(arg0);
	uaddr(arg0);
	printf("\ndepth %d\n", ustackdepth);
	@[ufunc(arg0)] = count();
}
