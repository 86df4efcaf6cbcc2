/* an aggregation is assigned the result of a subroutine, not an aggregating function */
BEGIN
{
	@a[execname] = strlen(execname);
}
