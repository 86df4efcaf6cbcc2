/*
 * exec's args[0] is the path (a string), exec-failure's the errno: 2
 * children exec a path that does not exist (ENOENT 2).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs noexec 2" */
proc:::exec
/ppid == $target/
{
	@n[probename, args[0]] = count();
}

proc:::exec-failure
/ppid == $target/
{
	@n[probename, lltostr(args[0])] = count();
}

END
{
	printa("%-14s %-22s %@d\n", @n);
}
