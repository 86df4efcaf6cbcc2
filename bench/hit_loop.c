/*
 * hit_loop N: fires bench:::two N times in a tight loop once a tracer has
 * enabled it (10 s at most), then prints "hits N ns/hit X": the cost of a
 * traced probe hit as the program sees it.  trace_bench.py runs it under
 * our dtrace and under bpftrace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_probes.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	double start, end;

	for (int i = 0; i < 10000 && !BENCH_TWO_ENABLED(); i++)
		usleep(1000);
	if (!BENCH_TWO_ENABLED()) {
		fprintf(stderr, "hit_loop: bench:::two was never enabled\n");
		return 1;
	}
	start = now();
	for (unsigned long i = 0; i < n; i++)
		BENCH_TWO(i, n);
	end = now();
	printf("hits %lu ns/hit %.1f\n", n, (end - start) / (double)n);
	return 0;
}
