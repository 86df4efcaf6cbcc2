/*
 * raise() signals the thread that fired the probe: SIGUSR1 ends the
 * trigger after tick 1 (no tick 2, no done).  A signal out of range is an
 * illegal operation, before any is sent.
 */
/* @setup: ./build.sh */
/* @args: -q -w -c "./trigger 3" */
BEGIN
{
	raise(0);
}

BEGIN
{
	raise(65);
}

trig$target:::tick
{
	printf("tick %d\n", arg0);
}

trig$target:::tick
/arg0 == 1/
{
	raise(10);
}

trig$target:::done
{
	printf("done\n");
}
