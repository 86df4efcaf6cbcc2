/* the factor given to normalize() must be a scalar, not a string */
BEGIN
{
	@a = count();
	normalize(@a, "x");
}
