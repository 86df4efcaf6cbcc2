/* the steps per magnitude of llquantize() must divide a power of the factor: 6 does not divide 8 */
BEGIN
{
	@a = llquantize(arg0, 2, 0, 4, 6);
}
