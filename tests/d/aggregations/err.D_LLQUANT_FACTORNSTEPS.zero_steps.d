/* zero steps per magnitude is fewer than the factor */
BEGIN
{
	@a = llquantize(arg0, 10, 0, 6, 0);
}
