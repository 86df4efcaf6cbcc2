/*
 * A child takes 4 SIGUSR2s (12) with sigtimedwait: signal-clear in the
 * child, arg0 the signal; signal-handle never (the signal is not
 * delivered to a handler).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs sigwait 4" */
proc:::signal-clear,
proc:::signal-handle
/ppid == $target/
{
	@n[probename, arg0] = count();
}

END
{
	printa("%s %d: %@d\n", @n);
}
