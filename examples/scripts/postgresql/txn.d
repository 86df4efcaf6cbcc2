#!/usr/sbin/dtrace -qs
/*
 * Transactions of every PostgreSQL 15 backend, started, committed and
 * aborted, printed when dtrace ends (Ctrl-C, or -c's command exiting):
 *   dtrace -qs txn.d
 *   dtrace -qs txn.d -c 'pgbench -n -c 2 -t 100 mydb'
 * Every transaction counts: pgbench's, each new connection's own
 * (authentication reads the catalogs), autovacuum's.  The probes are
 * named by the server's path (Debian's postgresql-15), so backends forked
 * after dtrace started are traced too.
 */
postgresql:/usr/lib/postgresql/15/bin/postgres::transaction-start { starts++; }
postgresql:/usr/lib/postgresql/15/bin/postgres::transaction-commit { commits++; }
postgresql:/usr/lib/postgresql/15/bin/postgres::transaction-abort { aborts++; }

END
{
	printf("transactions: %d started, %d committed, %d aborted\n", starts, commits, aborts);
}
