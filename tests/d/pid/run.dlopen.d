/*
 * A library the target dlopen()s after tracing starts: -Z lets the
 * description match nothing at first, and the consumer reads the
 * target's new mappings at its next look (dlopener waits 2 s before it
 * calls f() 5 times: calls sooner than the look are missed).
 */
/* @setup: ./build.sh */
/* @args: -Z -q -c "./dlopener 5 2000" */
pid$target:libpidtest.so:f:entry
{
	@entries = count();
}

pid$target:libpidtest.so:f:return
{
	@ret[arg1] = count();
}

END
{
	printa("f entered %@d times\n", @entries);
	printa("f returned %d: %@d\n", @ret);
}
