/* errno of a system call's return */
syscall::open:return
/errno != 0/
{
	trace(errno);
}
