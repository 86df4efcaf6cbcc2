/*
 * Where dtrace(1) puts empty lines around aggregations, quiet: printa()
 * with a format prints its lines and nothing more (dtrace_fprinta);
 * printa() without one starts with a newline and ends each entry with one
 * (dt_consume_cpu's nofmt case, dt_print_aggs); when tracing stops,
 * dtrace(1) prints a newline even when quiet (its main loop's
 * oprintf("\n")), then the aggregations no printa() printed.
 */
#pragma D option quiet

BEGIN
{
	@c["commits"] = count();
	@s = sum(3);
	@u = sum(7);
	exit(0);
}

END
{
	printa("%s %@d\n", @c);
	printa(@s);
	printf("end\n");
}
