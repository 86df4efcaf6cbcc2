/* on-cpu has no arguments in illumos (the current thread is curlwpsinfo) */
sched:::on-cpu
{
	trace(args[0]->pr_lwpid);
}
