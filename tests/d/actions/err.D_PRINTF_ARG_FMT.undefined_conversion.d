/* %q is not a printf conversion */
BEGIN
{
	printf("%q\n", 1);
}
