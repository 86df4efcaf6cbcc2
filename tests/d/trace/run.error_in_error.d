/*
 * An ERROR clause that faults reports its own error, and the ERROR clauses
 * after it still see the first fault's arguments (its own error record
 * went where theirs came from: arg1 was the faulting ERROR clause's EPID).
 */
/* @args: -q */
BEGIN
{
	x = *(int *)8;
}

ERROR
{
	y = *(int *)16;
}

ERROR
{
	printf("arg1 %d arg4 %d arg5 %d\n", arg1, arg4, arg5);
	exit(0);
}
