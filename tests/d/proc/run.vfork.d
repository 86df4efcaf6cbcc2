/*
 * 3 children made by vfork exec /bin/true with execveat (whose path is
 * its second argument): create and lwp-create in the parent, start in the
 * child, exec with the path, exec-success as "true", exit CLD_EXITED.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs vfork 3" */
proc:::create,
proc:::lwp-create
/pid == $target/
{
	@n[probename, execname, ""] = count();
}

proc:::start,
proc:::exec-success,
proc:::exec-failure
/ppid == $target/
{
	@n[probename, execname, ""] = count();
}

proc:::exec
/ppid == $target/
{
	@n[probename, execname, copyinstr(arg0)] = count();
}

proc:::exit
/ppid == $target/
{
	@n[probename, execname, lltostr(arg0)] = count();
}

END
{
	printa("%s %s %s: %@d\n", @n);
}
