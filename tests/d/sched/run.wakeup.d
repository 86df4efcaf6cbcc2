/*
 * The main thread wakes the worker, blocked reading a pipe, 10 times:
 * wakeup fires in the waker, args[0] and args[1] (arg0 = arg1, the task)
 * being the woken thread and its process.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds wake 10" */
sched:::wakeup
/pid == $target && tid == pid &&
    xlate <psinfo_t *> ((struct task_struct *)arg1)->pr_pid == pid/
{
	@w[xlate <lwpsinfo_t *> ((struct task_struct *)arg0)->pr_lwpid != tid] = count();
}

END
{
	printa("woken in the process: another thread %d: %@d\n", @w);
}
