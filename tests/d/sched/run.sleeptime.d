/*
 * A worker thread sleeps 5 x 100 ms: its off-cpu to on-cpu time is the
 * time it slept (within 10%), and sleep fires once for each nanosleep.
 * Only the worker writes the globals.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds sleep 5 100" */
uint64_t total;
int sleeps;

sched:::off-cpu
/pid == $target && tid != pid/
{
	self->ts = timestamp;
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
}
