/*
 * 3 children exec a path that does not exist: exec, then exec-failure
 * with arg0 ENOENT (2), and no exec-success; the children then exit 0.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs noexec 3" */
proc:::exec
/ppid == $target/
{
	@n[probename, copyinstr(arg0)] = count();
}

proc:::exec-failure,
proc:::exit
/ppid == $target/
{
	@n[probename, lltostr(arg0)] = count();
}

proc:::exec-success
/ppid == $target/
{
	@n[probename, ""] = count();
}

END
{
	printa("%s %s: %@d\n", @n);
}
