/* the factor of llquantize() does not divide its steps per magnitude */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 25);
}
