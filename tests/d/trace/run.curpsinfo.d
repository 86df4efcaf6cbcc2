/*
 * curpsinfo and curlwpsinfo read from the task the probe fired in, checked
 * against what dtrace knows in user space (macro variables): the target's
 * pid and thread, dtrace as its parent, dtrace's process group, session and
 * credentials (the target is its child), CPU 0 (taskset), execname; and
 * pr_psargs is the command line, cut to 79 bytes as illumos' PRARGSZ cuts it.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" */
trig$target:::done
{
	printf("pid %d ppid %d pgid %d sid %d nlwp %d\n", curpsinfo->pr_pid == $target,
	    curpsinfo->pr_ppid == $pid, curpsinfo->pr_pgid == $pgid, curpsinfo->pr_sid == $sid,
	    curpsinfo->pr_nlwp);
	printf("uid %d euid %d gid %d egid %d\n", curpsinfo->pr_uid == $uid,
	    curpsinfo->pr_euid == $euid, curpsinfo->pr_gid == $gid, curpsinfo->pr_egid == $egid);
	printf("fname %s (%d)\n", curpsinfo->pr_fname, curpsinfo->pr_fname == execname);
	printf("psargs %s (%d bytes)\n", curpsinfo->pr_psargs, strlen(curpsinfo->pr_psargs));
	printf("lwpid %d onpro %d name %s\n", curlwpsinfo->pr_lwpid == $target,
	    curlwpsinfo->pr_onpro == 0, curlwpsinfo->pr_name);
	this->args = curpsinfo->pr_psargs;
	@procs[curpsinfo->pr_fname, curpsinfo->pr_pid == $target] = count();
}
