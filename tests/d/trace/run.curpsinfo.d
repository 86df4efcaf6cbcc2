/*
 * curpsinfo and curlwpsinfo read from the task the probe fired in: they
 * agree with pid, ppid, tid, uid, gid, cpu and execname, the process group
 * and session are dtrace's (the target is its child), and pr_psargs is the
 * command line, cut to 79 bytes as illumos' PRARGSZ cuts it.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" */
trig$target:::done
{
	printf("pid %d ppid %d pgid %d sid %d nlwp %d\n", curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_pgid == $pgid, curpsinfo->pr_sid == $sid,
	    curpsinfo->pr_nlwp);
	printf("uid %d euid %d gid %d egid %d\n", curpsinfo->pr_uid == uid,
	    curpsinfo->pr_euid == uid, curpsinfo->pr_gid == gid, curpsinfo->pr_egid == gid);
	printf("fname %s (%d)\n", curpsinfo->pr_fname, curpsinfo->pr_fname == execname);
	printf("psargs %s (%d bytes)\n", curpsinfo->pr_psargs, strlen(curpsinfo->pr_psargs));
	printf("lwpid %d onpro %d name %s\n", curlwpsinfo->pr_lwpid == tid,
	    curlwpsinfo->pr_onpro == cpu, curlwpsinfo->pr_name);
	this->args = curpsinfo->pr_psargs;
	@procs[curpsinfo->pr_fname, curpsinfo->pr_pid == $target] = count();
}
