/*
 * A process that execs another program: the names of its addresses after
 * the exec are the new program's, not those of the mappings read before
 * (they are read again when /proc/PID/exe changed).  Both programs are
 * built without PIE, so that after_exec's address is inside execer's text
 * too.  The process is the target's child: the target's own mappings are
 * read again by dtrace whenever they change.
 */
/* @setup: ./build.sh */
/* @args: -q -x switchrate=20hz -c ./execer */
syscall::write:entry
/ppid == $target && (int)arg0 == -1/
{
	ufunc(arg1);
	printf("\n");
	umod(arg1);
	printf("\n");
}

syscall::write:entry
/ppid == $target && (int)arg0 == -1 && arg2 == 1/
{
	exit(0);
}
