/* no conversion to a floating-point type, long double included */
BEGIN
{
	x = (long double)1;
}
