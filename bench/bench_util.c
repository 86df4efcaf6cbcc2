/*
 * bench_util.c -- what every benchmark here needs: argument parsing, a
 * clock, pinning to one CPU, sorting figures, keeping results alive.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "static_probe_bench.h"

/* A positive decimal count no larger than max, or -1. */
int parse_count(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	/* strtoull would take "-1" as a huge count */
	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * Stay on the CPU we started on: a migration in the middle of a run costs a
 * cold cache and maybe another clock speed, and would land on one variant.
 * Returns the CPU, or -1 when we could not pin (the figures are still
 * usable, only noisier).
 */
int pin_to_current_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return -1;
	return cpu;
}

int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Uses a loop's result at no cost, so that no call is ever dead code. */
void keep(uint64_t sum)
{
	__asm__ __volatile__("" : : "r"(sum));
}
