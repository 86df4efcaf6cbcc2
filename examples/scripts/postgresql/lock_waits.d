#!/usr/sbin/dtrace -qs
/*
 * Heavyweight lock waits: how long each backend waited, by database and
 * relation OID (the lock tag's first two fields) and lock mode (1
 * AccessShareLock ... 8 AccessExclusiveLock), when dtrace ends:
 *   dtrace -qs lock_waits.d
 * A wait that had not ended when dtrace stopped is not counted.
 */
postgresql:/usr/lib/postgresql/15/bin/postgres::lock-wait-start
{
	self->ts = timestamp;
}

postgresql:/usr/lib/postgresql/15/bin/postgres::lock-wait-done
/self->ts/
{
	@waits[arg0, arg1, arg5] = count();
	@us[arg0, arg1, arg5] = sum((timestamp - self->ts) / 1000);
	self->ts = 0;
}

END
{
	printf("%10s %10s %5s %6s %12s\n", "DATABASE", "RELATION", "MODE", "WAITS", "WAITED us");
	printa("%10d %10d %5d %@6d %@12d\n", @waits, @us);
}
