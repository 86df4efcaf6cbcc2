/* one clause for several probe descriptions, on one line and across lines */
BEGIN, END
{
	trace(probename);
}

syscall::read:entry,
syscall::write:entry,
syscall::pread*:entry
/pid != 0/
{
	@[probefunc] = count();
}

tick-1s , tick-10s,profile-97
{
	trace(timestamp);
}
