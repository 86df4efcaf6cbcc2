/*
 * Data recorded after speculate() goes to the speculation and does not
 * count as data-recording for commit() (illumos dt_stmt_append sets
 * datarec only when no speculate( ) came first), so this compiles.
 */
BEGIN
{
	s = speculation();
	speculate(s);
	printf("a\n");
	commit(s);
}
