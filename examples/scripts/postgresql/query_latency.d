#!/usr/sbin/dtrace -qs
/*
 * The latency of every query (simple protocol: psql, pgbench -M simple)
 * in microseconds, by backend process, and the count, when dtrace ends:
 *   dtrace -qs query_latency.d
 */
postgresql:/usr/lib/postgresql/15/bin/postgres::query-start
{
	self->ts = timestamp;
}

postgresql:/usr/lib/postgresql/15/bin/postgres::query-done
/self->ts/
{
	@lat["query latency (us)"] = quantize((timestamp - self->ts) / 1000);
	@n = count();
	self->ts = 0;
}

END
{
	printa("queries: %@d\n", @n);
}
