/* @a is count() in one clause and sum() in the next */
BEGIN
{
	@a[pid] = count();
}

END
{
	@a[pid] = sum(1);
}
