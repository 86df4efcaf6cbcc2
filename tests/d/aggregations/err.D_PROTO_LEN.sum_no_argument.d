/* sum() needs its value */
BEGIN
{
	@a = sum();
}
