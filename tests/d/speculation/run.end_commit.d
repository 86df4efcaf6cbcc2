/* a speculation taken in BEGIN and filled by ticks is committed in END; a second one, never committed nor discarded, prints nothing */
/* @args: -q -x nspec=2 */
BEGIN
{
	s = speculation();
	t = speculation();
	i = 0;
}

profile:::tick-10ms
/i < 3/
{
	speculate(s);
	printf("tick %d\n", i);
}

profile:::tick-10ms
/i < 3/
{
	speculate(t);
	printf("never %d\n", i);
}

profile:::tick-10ms
/i++ == 3/
{
	exit(0);
}

END
{
	printf("end\n");
}

END
{
	commit(s);
}
