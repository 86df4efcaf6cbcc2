/* a printa() format conversion does not fit the key it prints */
BEGIN
{
	@a[1] = count();
	printa("%s %@d\n", @a);
}
