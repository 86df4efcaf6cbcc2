/* nspec=2: a third and later speculation() return 0, counted as failed (no buffer available); once one is discarded and not yet cleaned, a failure is counted as busy instead; speculate(0) records nothing */
/* @args: -q -x nspec=2 */
BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("%d %d %d %d %d\n", a, b, c, speculation(), speculation());
}

BEGIN
{
	speculate(c);
	printf("speculate(0) records nothing\n");
}

BEGIN
{
	discard(a);
}

BEGIN
{
	printf("busy %d %d\n", speculation(), speculation());
}

BEGIN
{
	exit(0);
}
