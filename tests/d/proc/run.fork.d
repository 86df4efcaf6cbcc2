/*
 * 4 children that exit with status 7: create fires 4 times in the target,
 * start 4 times in the children (before their first user instruction),
 * exit 4 times with arg0 CLD_EXITED (1).  A child's one thread is an lwp
 * too, as in illumos: lwp-create 4 times in the parent, lwp-start and
 * lwp-exit 4 times in the children.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs fork 4 7" */
proc:::create
/pid == $target/
{
	@n["create in the parent", arg0 != 0 && arg0 == arg1] = count();
}

proc:::start
/ppid == $target/
{
	@n["start in a child", pid != $target && tid == pid] = count();
}

proc:::exit
/ppid == $target/
{
	@n["exit in a child", arg0] = count();
}

proc:::lwp-create
/pid == $target/
{
	@n["lwp-create in the parent", arg0 != 0 && arg0 == arg1] = count();
}

proc:::lwp-start,
proc:::lwp-exit
/ppid == $target/
{
	@n[strjoin(probename, " in a child"), tid == pid] = count();
}

END
{
	printa("%s %d: %@d\n", @n);
}
