/*
 * 2 children killed by SIGQUIT dump core (the target raises RLIMIT_CORE;
 * the kernel's core_pattern here is "core", a file in the directory):
 * exit's arg0 is CLD_DUMPED (3).  With no dump (a core_pattern that
 * fails) it would be CLD_KILLED (2).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs dump 2" */
proc:::exit
/ppid == $target/
{
	@n[arg0] = count();
}

END
{
	printa("exit %d: %@d\n", @n);
}
