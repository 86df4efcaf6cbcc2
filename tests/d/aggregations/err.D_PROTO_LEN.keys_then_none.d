/* @a is used with a key, then without keys */
BEGIN
{
	@a[execname] = count();
	@a = count();
}
