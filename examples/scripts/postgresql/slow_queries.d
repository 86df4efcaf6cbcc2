#!/usr/sbin/dtrace -qs
/*
 * Queries slower than $1 milliseconds, as they finish: the time, the
 * backend's pid and the query's text (the first strsize bytes):
 *   dtrace -qs slow_queries.d 100
 */
postgresql:/usr/lib/postgresql/15/bin/postgres::query-start
{
	self->ts = timestamp;
	self->sql = copyinstr(arg0);
}

postgresql:/usr/lib/postgresql/15/bin/postgres::query-done
/self->ts && timestamp - self->ts > $1 * 1000000/
{
	printf("%6d ms  pid %d  %s\n", (timestamp - self->ts) / 1000000, pid, self->sql);
}

postgresql:/usr/lib/postgresql/15/bin/postgres::query-done
{
	self->ts = 0;
	self->sql = 0;
}
