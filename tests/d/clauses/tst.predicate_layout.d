/* a predicate spread over lines, with comments between the slashes and the body */
syscall::read:entry
/
	pid != 0 &&	/* not the scheduler */
	arg2 > 0	/* reads something */
/
/* the body follows */
{
	trace(arg2);
}
