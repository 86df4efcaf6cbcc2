/* the factor of llquantize() must be at least 2 */
BEGIN
{
	@a = llquantize(arg0, 1, 0, 6, 20);
}
