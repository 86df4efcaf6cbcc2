/* normalize() needs its normalization factor */
BEGIN
{
	@a = count();
	normalize(@a);
}
