/* exit() records data, so it may not follow commit() */
BEGIN
{
	commit(1);
	exit(0);
}
