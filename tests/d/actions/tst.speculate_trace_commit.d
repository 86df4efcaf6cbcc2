/* data recorded after speculate() belongs to the speculation and may precede a commit() */
BEGIN
{
	speculate(1);
	trace(1);
	commit(2);
}
