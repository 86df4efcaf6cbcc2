/* the first key of @a is an integer, then a string */
BEGIN
{
	@a[pid, execname] = count();
}

END
{
	@a["pid", execname] = count();
}
