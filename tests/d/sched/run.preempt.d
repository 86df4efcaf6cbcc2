/*
 * Two workers spin 300 ms on CPU 0: the tick interrupts them (tick, in
 * the thread it interrupted), each is told to give up the CPU
 * (surrender, at the tick) and preempted (then enqueued, off-cpu) while
 * the other runs, and dequeued when it runs again, on the
 * CPU that picks it (args[2] is cpuinfo_t of the CPU the task is on).
 * enqueue reads its native arguments (arg0 = arg1 = the task), through
 * procfs.d's translators.  Scheduling is not exact: booleans.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds spin 300" */
int preempts, enqueues, dequeues, surrenders, ticks;

sched:::preempt
/pid == $target && tid != pid/
{
	preempts++;
}

sched:::enqueue
/xlate <psinfo_t *> ((struct task_struct *)arg1)->pr_pid == $target &&
    xlate <lwpsinfo_t *> ((struct task_struct *)arg0)->pr_lwpid != $target/
{
	enqueues++;
}

sched:::tick
/pid == $target && tid != pid && args[0]->pr_lwpid == tid && args[1]->pr_pid == pid/
{
	ticks++;
}

sched:::surrender
/args[1]->pr_pid == $target && args[0]->pr_lwpid != $target/
{
	surrenders++;
}

sched:::dequeue
/args[1]->pr_pid == $target/
{
	dequeues++;
	@cpu[args[2]->cpu_id == cpu] = count();
}

END
{
	printf("ticks: %d, told to surrender: %d\n", ticks > 0, surrenders > 0);
	printf("preempted: %d, enqueued: %d, dequeued: %d\n", preempts > 0, enqueues > 0,
	    dequeues > 0);
	printa("dequeued on this CPU: %d\n", @cpu);
}
