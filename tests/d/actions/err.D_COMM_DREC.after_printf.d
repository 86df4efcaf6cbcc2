/* commit() after a data-recording action */
BEGIN
{
	printf("%d\n", pid);
	commit(1);
}
