/*
 * stop() stops the process that fired the probe (SIGSTOP): system(), run
 * by the consumer, finds it stopped, and lets it go on (dtrace(1) does
 * not continue what stop() stopped).
 */
/* @setup: ./build.sh */
/* @args: -q -w -c "./trigger 3" */
trig$target:::done
{
	stop();
	system("grep State /proc/%d/status; kill -CONT %d", pid, pid);
}

trig$target:::done
{
	printf("stopped at done(%d)\n", arg0);
	exit(0);
}
