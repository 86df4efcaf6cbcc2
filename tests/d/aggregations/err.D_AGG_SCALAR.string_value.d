/* sum() of a string: aggregating functions need a scalar value */
BEGIN
{
	@a = sum(execname);
}
