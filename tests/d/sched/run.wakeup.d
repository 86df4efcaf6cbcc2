/*
 * The main thread wakes the worker, blocked reading a pipe, 10 times:
 * wakeup fires in the waker, args[0] and args[1] being the woken thread
 * and its process; each wakeup enqueues the
 * worker (sched_wakeup, in the waker or on the CPU that takes it: at
 * least 10 enqueues, more when it is also preempted).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds wake 10" */
int enqueues;

sched:::wakeup
/pid == $target && tid == pid && args[1]->pr_pid == pid/
{
	@w[args[0]->pr_lwpid != tid] = count();
}

sched:::enqueue
/args[1]->pr_pid == $target && args[0]->pr_lwpid != $target/
{
	enqueues++;
}

END
{
	printa("woken in the process: another thread %d: %@d\n", @w);
	printf("worker enqueued at least 10 times: %d\n", enqueues >= 10);
}
