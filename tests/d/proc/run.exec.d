/*
 * 2 children exec /bin/true: exec fires with the path (arg0, a user
 * address) while execname is still the target's, exec-success in the new
 * image (execname "true"), exec-failure never.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs exec 2" */
proc:::exec
/ppid == $target/
{
	@n[probename, execname, copyinstr(arg0)] = count();
}

proc:::exec-success
/ppid == $target/
{
	@n[probename, execname, ""] = count();
}

proc:::exec-failure
/ppid == $target/
{
	@n[probename, execname, lltostr(arg0)] = count();
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
