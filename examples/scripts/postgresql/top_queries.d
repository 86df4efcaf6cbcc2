#!/usr/sbin/dtrace -qs
/*
 * The ten queries run most often (their text, the first strsize bytes),
 * with their counts, when dtrace ends:
 *   dtrace -qs top_queries.d
 */
postgresql:/usr/lib/postgresql/15/bin/postgres::query-start
{
	@[copyinstr(arg0)] = count();
}

END
{
	trunc(@, 10);
	printa("%@8d  %s\n", @);
}
