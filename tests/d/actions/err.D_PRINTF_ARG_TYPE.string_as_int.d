/* printf %d given a string */
BEGIN
{
	printf("%s has %d\n", execname, execname);
}
