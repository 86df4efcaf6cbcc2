/*
 * The target sends its child SIGUSR1 (10) 3 times; the child has a
 * handler: signal-send in the sender with arg2 the signal and arg0 = arg1
 * the target's task, signal-handle in the child with arg0 the signal and
 * arg2 the handler.  The child's SIGCHLD (17) to the target, whose
 * action is the default (ignore), is discarded: no signal-send (illumos
 * fires signal-discard instead).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs signal 3" */
proc:::signal-send
/pid == $target/
{
	@n["send from the target", arg2, arg0 != 0 && arg0 == arg1] = count();
}

proc:::signal-send
/ppid == $target/
{
	@n["send from the child", arg2, arg0 != 0 && arg0 == arg1] = count();
}

proc:::signal-handle
/ppid == $target/
{
	@n["handle in the child", arg0, arg2 != 0] = count();
}

END
{
	printa("%s %d %d: %@d\n", @n);
}
