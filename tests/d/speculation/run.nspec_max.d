/* nspec=256, the most: the last slot is taken, then none is left */
/* @args: -q -x nspec=256 */
BEGIN
{
	i = 0;
}

profile:::tick-1ms
/i < 256/
{
	last = speculation();
	i++;
}

profile:::tick-1ms
/i == 256/
{
	printf("last %d, then %d\n", last, speculation());
	exit(0);
}
