/*
 * Priority inheritance: a SCHED_FIFO (priority 10) worker waits for a
 * mutex the main thread holds, which boosts the main thread, in the
 * waiter, from its SCHED_OTHER priority (pr_pri 139 - 120 = 19) to the
 * waiter's (139 - (99 - 10) = 50); unlocking restores it, in the main
 * thread.  args[2] is the new priority, counted as pr_pri.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds pi" */
sched:::change-pri
/pid == $target/
{
	@c[tid == pid ? "main" : "waiter",
	    args[0]->pr_lwpid == pid ? "main" : "waiter", args[0]->pr_pri, args[2]] = count();
}

END
{
	printa("in %s: %s from %d to %d: %@d\n", @c);
}
