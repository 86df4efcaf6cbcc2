/* %lc: pfcheck_type "int" (a wint_t): an unsigned int is not compatible */
BEGIN
{
	printf("%lc\n", (unsigned int)65);
}
