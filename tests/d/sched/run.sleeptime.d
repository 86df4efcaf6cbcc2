/*
 * A worker thread sleeps 5 x 100 ms: its off-cpu to on-cpu time is the
 * time it slept (within 10%), and sleep fires once for each nanosleep.
 * From its first run (on-cpu, from schedule_tail) to its exit (off-cpu)
 * every off-cpu has its on-cpu, and a sleep comes before its off-cpu (the
 * programs on sched_switch run in the probes' order).  Only the worker
 * writes the globals.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds sleep 5 100" */
uint64_t total;
int sleeps, ons, offs, inorder;
self int sleeping;

sched:::off-cpu
/pid == $target && tid != pid/
{
	self->ts = timestamp;
	offs++;
	inorder += self->sleeping;
}

sched:::on-cpu
/pid == $target && tid != pid/
{
	ons++;
	self->sleeping = 0;
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
	self->sleeping = 1;
}

END
{
	printf("off-cpu to on-cpu within 10%% of 500 ms: %d\n",
	    total >= 450000000 && total <= 550000000);
	printf("sleeps: %d\n", sleeps);
	printf("on-cpu == off-cpu: %d, at least 6: %d\n", ons == offs, ons >= 6);
	printf("sleep before off-cpu: %d\n", inorder);
}
