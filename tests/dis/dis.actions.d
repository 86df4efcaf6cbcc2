/* printf, trace, tracemem and exit in one clause */
syscall::write:entry
{
	printf("%s[%d] %d bytes\n", execname, pid, arg2);
	trace(timestamp);
	tracemem(arg1, 16);
	exit(0);
}
