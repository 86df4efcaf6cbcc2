/* %Lf: pfcheck_type "long double": a double is not one */
double d;

BEGIN
{
	printf("%Lf\n", d);
}
