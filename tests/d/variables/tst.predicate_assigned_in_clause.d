/* A predicate may read a variable the clause's actions create: DTrace cooks actions before the predicate. */
BEGIN
/x == 0/
{
	trace(x++);
}
