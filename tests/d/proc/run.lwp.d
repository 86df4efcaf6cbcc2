/*
 * 5 threads created and joined: lwp-create in the creating thread (arg0 =
 * arg1 = the new thread's task), lwp-start and lwp-exit in each new
 * thread (tid != pid); then the main thread's lwp-exit and the process's
 * exit (arg0 CLD_EXITED) in it, and no create or start.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs threads 5" */
proc:::lwp-create
/pid == $target/
{
	@n[probename, tid == pid, arg0 != 0 && arg0 == arg1] = count();
}

proc:::lwp-start,
proc:::lwp-exit,
proc:::create,
proc:::start
/pid == $target/
{
	@n[probename, tid == pid, 0] = count();
}

proc:::exit
/pid == $target/
{
	@n[probename, tid == pid, arg0] = count();
}

END
{
	printa("%s %d %d: %@d\n", @n);
}
