/* off-cpu's args[2] does not exist, dequeue's is a cpuinfo_t *: one clause cannot type both */
sched:::off-cpu,
sched:::dequeue
{
	trace(args[0]->pr_lwpid);
}
