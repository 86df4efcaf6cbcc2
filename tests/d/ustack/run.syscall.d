/*
 * ustack() at a system call, not a uprobe: the walk starts from the user
 * registers the kernel saved at the call (its PC after libc's syscall
 * instruction), so the first frame is in getppid, then sys, main and the
 * start frames.  A process that is not the target makes no record.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./chain 1 sys" */
syscall::getppid:entry
/pid == $target/
{
	printf("depth %d", ustackdepth);
	ustack();
}
