#!/usr/sbin/dtrace -qs
/*
 * Python 3.11's garbage collections (Debian's python3.11: provider
 * python): how many per generation, how long they took, and what they
 * collected, when the process ends:
 *   dtrace -qs gc.d -c 'python3 app.py'
 *   dtrace -qs gc.d -p PID
 */
python$target:::gc-start
{
	self->gen = arg0;
	self->ts = timestamp;
}

python$target:::gc-done
/self->ts/
{
	@n[self->gen] = count();
	@us[self->gen] = sum((timestamp - self->ts) / 1000);
	@freed[self->gen] = sum(arg0);
	self->ts = 0;
}

END
{
	printf("%4s %8s %10s %10s\n", "GEN", "RUNS", "TOOK us", "COLLECTED");
	printa("%4d %@8d %@10d %@10d\n", @n, @us, @freed);
}
