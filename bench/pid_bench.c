/*
 * pid_bench N: calls bench_fn() N times in a tight loop and prints
 * "ns/call X": what one call costs the caller, with its probes.
 * run_pid.sh runs it with no tracer, under a pid entry probe on bench_fn
 * (our dtrace) and under a uprobe on it (bpftrace); with N 0 it is the
 * target that pid$target:libc.so.6::entry is enabled on and timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

unsigned long bench_fn(unsigned long x);

__attribute__((noinline)) unsigned long bench_fn(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000, sum = 0;
	double start;

	start = now();
	for (unsigned long i = 0; i < n; i++)
		sum += bench_fn(i);
	printf("ns/call %.1f\n", n ? (now() - start) / (double)n : 0.0);
	return sum == 1;
}
