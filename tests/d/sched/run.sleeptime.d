/*
 * A worker thread sleeps 5 x 100 ms: its off-cpu to on-cpu time is the
 * time it slept (within 10%), and sleep fires once for each nanosleep.
 * From its first run (on-cpu, from schedule_tail) to its exit (off-cpu)
 * every off-cpu has its on-cpu.  Only the worker writes the globals.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds sleep 5 100" */
uint64_t total;
int sleeps, ons, offs;

sched:::off-cpu
/pid == $target && tid != pid/
{
	self->ts = timestamp;
	offs++;
}

sched:::on-cpu
/pid == $target && tid != pid/
{
	ons++;
}

sched:::on-cpu
/self->ts/
{
	total += timestamp - self->ts;
	self->ts = 0;
}

sched:::sleep
/pid == $target && tid != pid/
{
	sleeps++;
}

END
{
	printf("off-cpu to on-cpu within 10%% of 500 ms: %d\n",
	    total >= 450000000 && total <= 550000000);
	printf("sleeps: %d\n", sleeps);
	printf("on-cpu == off-cpu: %d, at least 6: %d\n", ons == offs, ons >= 6);
}
