/* two clauses for one probe, each with its own predicate and record */
syscall::read:entry
/arg2 > 4096/
{
	trace(arg2);
}

syscall::read:entry
/arg2 <= 4096/
{
	trace(arg0);
	trace(arg1);
}
