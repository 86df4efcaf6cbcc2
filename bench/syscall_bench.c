/*
 * syscall_bench N: makes N getppid() system calls in a tight loop (through
 * syscall(2), so no library caches the answer) and prints "ns/call X": what
 * one call costs the caller.  run_syscall.sh runs it with no tracer, under
 * dtrace's syscall provider and under bpftrace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	double start;

	if (n == 0)
		return 2;
	start = now();
	for (unsigned long i = 0; i < n; i++)
		(void)syscall(SYS_getppid);
	printf("ns/call %.1f\n", (now() - start) / (double)n);
	return 0;
}
