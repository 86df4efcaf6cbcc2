/*
 * 3 children killed by SIGKILL: exit's arg0 is CLD_KILLED (2), and it
 * fires in the child (execname the target's, pid not the target's).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs kill 3" */
proc:::exit
/ppid == $target/
{
	@n[execname, arg0, pid != $target] = count();
}

END
{
	printa("%s %d %d: %@d\n", @n);
}
