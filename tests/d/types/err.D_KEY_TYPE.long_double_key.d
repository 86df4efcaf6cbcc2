/* a long double cannot be an aggregation key */
long double a;

BEGIN
{
	@[a] = count();
}
