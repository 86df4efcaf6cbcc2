/* the providers built in are always there: dtrace, and profile (with its tick probes) */
#pragma D depends_on provider dtrace
#pragma D depends_on provider profile

BEGIN
{
}

tick-1s
{
	exit(0);
}
