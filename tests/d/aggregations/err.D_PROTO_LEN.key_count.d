/* @a has one key in the first clause and two in the second */
BEGIN
{
	@a[pid] = count();
}

END
{
	@a[pid, tid] = count();
}
