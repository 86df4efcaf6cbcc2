/* nspec=0: no speculation is ever available; speculate() of its 0 records nothing */
/* @args: -q -x nspec=0 */
BEGIN
{
	s = speculation();
	printf("%d\n", s);
}

BEGIN
{
	speculate(s);
	printf("not printed\n");
}

BEGIN
{
	exit(0);
}
