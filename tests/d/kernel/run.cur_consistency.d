/*
 * procfs.d's curpsinfo and curlwpsinfo (translators from curthread, a
 * struct task_struct *) agree with the built-in variables, which read the
 * task with helpers: on a process on the CPU, from profile's tick.
 */
/* @setup: ./build_spin.sh */
/* @args: -q -c ./spin */
profile:::tick-10ms
/pid == $target/
{
	printf("%d %d %d %d %d %d\n", pid == curpsinfo->pr_pid,
	    ppid == curpsinfo->pr_ppid, uid == curpsinfo->pr_uid,
	    gid == curpsinfo->pr_gid, tid == curlwpsinfo->pr_lwpid,
	    execname == curpsinfo->pr_fname);
	printf("%s %s %d %c %d\n", curpsinfo->pr_fname, curlwpsinfo->pr_name,
	    curpsinfo->pr_nlwp, curlwpsinfo->pr_sname,
	    curlwpsinfo->pr_onpro == cpu);
	printf("%d %d\n", curpsinfo->pr_addr == (uintptr_t)curthread,
	    curpsinfo->pr_pgid != 0);
	exit(0);
}
