/*
 * 4 children that exit with status 7: create fires 4 times in the target,
 * start 4 times in the children (before their first user instruction),
 * exit 4 times with arg0 CLD_EXITED (1).  No thread probe fires.
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

proc:::lwp-create,
proc:::lwp-start,
proc:::lwp-exit
/pid == $target || ppid == $target/
{
	@n[probename, 0] = count();
}

END
{
	printa("%s %d: %@d\n", @n);
}
