/* printf has one conversion and two values */
BEGIN
{
	printf("%d\n", pid, tid);
}
