/* the count given to trunc() must be a scalar, not a string */
BEGIN
{
	@a = count();
	trunc(@a, "x");
}
