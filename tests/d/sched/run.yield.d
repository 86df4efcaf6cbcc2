/*
 * A worker yields 2000 times: some of them keep it on the CPU
 * (remain-cpu; it depends on what else runs: a boolean), each is a
 * preempt (a runnable thread entering the scheduler: at least 2000), and every on-cpu
 * of it has curcpu, cpu, curlwpsinfo and tid agree.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./scheds yield 2000" */
int remains, preempts;

sched:::remain-cpu
/pid == $target && tid != pid/
{
	remains++;
}

sched:::preempt
/pid == $target && tid != pid/
{
	preempts++;
}

sched:::on-cpu
/pid == $target/
{
	@on[curcpu->cpu_id == cpu, curlwpsinfo->pr_lwpid == tid,
	    curpsinfo->pr_pid == pid] = count();
}

END
{
	printf("remain-cpu: %d, preempt: %d\n", remains > 0, preempts >= 2000);
	printa("on-cpu: curcpu %d, curlwpsinfo %d, curpsinfo %d\n", @on);
}
