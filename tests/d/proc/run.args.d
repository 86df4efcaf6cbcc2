/*
 * args[] as illumos types them, through the D library's translators:
 * create's args[0] is the child's psinfo_t, lwp-create's args[0] and
 * args[1] its lwpsinfo_t and psinfo_t, exec's args[0] the path string,
 * exit's args[0] the reason; each agrees with what the child sees of
 * itself (pid, ppid) at its start.  3 children exit with status 5.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs fork 3 5" */
proc:::create
/pid == $target/
{
	child[args[0]->pr_pid] = 1;
	@n["create: child's parent is the target", args[0]->pr_ppid == $target] = count();
	@n["create: child's name is the target's", args[0]->pr_fname == execname] = count();
}

proc:::lwp-create
/pid == $target/
{
	@n["lwp-create: lwpid is pid in a new process", args[0]->pr_lwpid == args[1]->pr_pid] =
	    count();
}

proc:::start
/child[pid]/
{
	@n["start: in a child create saw", ppid == $target] = count();
}

proc:::exit
/child[pid]/
{
	@n["exit: reason CLD_EXITED", args[0] == 1] = count();
}

END
{
	printa("%-44s %d %@d\n", @n);
}
