/*
 * signal-handle's args[1] is the siginfo_t (signal.d's translator): the
 * target kill(2)s its child with SIGUSR1 3 times, so the child handles
 * signal SIGUSR1, code SI_USER, from the target's pid and uid; and
 * signal-send's args[0] and args[1] are the child's lwpsinfo_t and
 * psinfo_t, sent signal args[2].
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs signal 3" */
proc:::signal-handle
/ppid == $target/
{
	@n["handle", args[0] == SIGUSR1, args[1]->si_signo == SIGUSR1,
	    args[1]->si_code == SI_USER, args[1]->si_pid == $target, args[1]->si_uid == uid] =
	    count();
}

proc:::signal-send
/pid == $target && args[2] == SIGUSR1/
{
	@n["send", args[1]->pr_ppid == $target, args[0]->pr_lwpid == args[1]->pr_pid,
	    args[1]->pr_pid != $target, 1, 1] = count();
}

END
{
	printa("%-7s %d %d %d %d %d %@d\n", @n);
}
