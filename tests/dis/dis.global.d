/* global scalar variables: stored, read back, incremented */
int total;

syscall::write:entry
{
	total = total + arg2;
	calls++;
	trace(total / calls);
}
