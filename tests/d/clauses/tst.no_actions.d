/* clauses without actions take the default action: before another clause and at the end of the file */
BEGIN

tick-1s
{
	trace(1);
}

syscall::read:entry, syscall::write:entry

END
