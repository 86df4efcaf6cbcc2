/*
 * sched_bench N: two threads on CPU 0 hand a byte back and forth over two
 * pipes N times, so that each hand-off is a context switch (the writer
 * wakes the reader, then blocks on its own read).  Prints "ns/switch X":
 * the elapsed time over the context switches the process counted
 * (getrusage: voluntary and involuntary), and "switches N".  run_sched.sh
 * runs it with no tracer, under dtrace's sched provider and under
 * bpftrace.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static unsigned long n;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *echo(void *a)
{
	char c;

	(void)a;
	pin();
	for (unsigned long i = 0; i < n; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			exit(1);
	return NULL;
}

static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

int main(int argc, char **argv)
{
	pthread_t t;
	double start, ns;
	long sw;
	char c = 'x';

	n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	if (n == 0 || pipe(ping) != 0 || pipe(pong) != 0)
		return 2;
	pin();
	pthread_create(&t, NULL, echo, NULL);
	sw = switches();
	start = now();
	for (unsigned long i = 0; i < n; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	ns = now() - start;
	sw = switches() - sw;
	pthread_join(t, NULL);
	printf("ns/switch %.1f\nswitches %ld\n", ns / (double)(sw > 0 ? sw : 1), sw);
	return 0;
}
