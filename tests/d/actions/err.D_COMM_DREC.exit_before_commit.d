/* exit() records data, so commit() may not follow it */
BEGIN
{
	exit(0);
	commit(1);
}
