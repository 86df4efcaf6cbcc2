/* printa() with a format: %@ for the value, other conversions for the keys */
BEGIN
{
	@a = count();
	@b[execname, pid] = sum(arg0);
	printa("%@d\n", @a);
	printa("%s %d %@u\n", @b);
}
