#!/usr/sbin/dtrace -qs
/*
 * The ten most frequent queries and the connections that sent most,
 * when dtrace ends:
 *   dtrace -qs top.d -p $(pgrep -n qserver)
 */
qserver$target:::query-start
{
	@queries[copyinstr(arg2)] = count();
}

qserver$target:::conn-close
{
	@conns[arg0] = sum(arg1);
}

END
{
	trunc(@queries, 10);
	printa("%@6d  %s\n", @queries);
	printa("conn %d: %@d queries\n", @conns);
}
