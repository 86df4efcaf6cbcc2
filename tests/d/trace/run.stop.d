/*
 * stop() stops the process that fired the probe (SIGSTOP): system(), run
 * by the consumer, finds it stopped, and lets it go on (dtrace(1) does
 * not continue what stop() stopped).  The signal takes effect when the
 * process leaves the probe's trap, which the consumer may read the record
 * before: system() waits up to a second for it (a process never stopped
 * prints its running state).
 */
/* @setup: ./build.sh */
/* @args: -q -w -c "./trigger 3" */
trig$target:::done
{
	stop();
	system("for i in $(seq 100); do grep -q 'T (stopped)' /proc/%d/status && break; sleep 0.01; done; grep State /proc/%d/status; kill -CONT %d",
	    pid, pid, pid);
}

trig$target:::done
{
	printf("stopped at done(%d)\n", arg0);
	exit(0);
}
