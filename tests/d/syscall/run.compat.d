/*
 * Compat (ia32) system calls fire no syscall probe: the target makes 5
 * ia32 getpid calls (int $0x80, number 20, which is writev in the native
 * table) and then 5 native getpid calls.  Only the native ones count, and
 * no writev is seen.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./int80 5" */
syscall::getpid:entry,
syscall::getpid:return,
syscall::writev:entry
/pid == $target/
{
	@n[probefunc, probename] = count();
}

END
{
	printa("%s:%s %@d\n", @n);
}
