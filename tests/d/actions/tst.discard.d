/* discard() is not commit(): data may be recorded before and after it, and it may follow commit() */
BEGIN
{
	discard(1);
	trace(1);
}

BEGIN
{
	trace(1);
	discard(1);
}

BEGIN
{
	commit(1);
	discard(2);
}
