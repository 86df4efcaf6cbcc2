/* clear() records data, so it may not follow commit() */
BEGIN
{
	@a = count();
}

BEGIN
{
	commit(1);
	clear(@a);
}
