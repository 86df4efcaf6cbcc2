/*
 * map_hammer CPU SECONDS: bpf(2) look-ups of an array map's element in a
 * loop, on CPU, for SECONDS; prints how many and the time each took.
 * While a CPU is in a map operation the kernel skips the BPF programs of
 * perf events that fire there (bpf_prog_active): integration.startup
 * checks that dtrace reports the tick firings lost so.
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	unsigned long long n = 0, v;
	unsigned key = 0;
	double t0, secs;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: map_hammer CPU SECONDS\n");
		return 2;
	}
	secs = atof(argv[2]);
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		perror("map_hammer: sched_setaffinity");
		return 1;
	}
	if ((fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "map_hammer", 4, 8, 1, NULL)) < 0) {
		perror("map_hammer: bpf_map_create");
		return 1;
	}
	t0 = now();
	do {
		for (int i = 0; i < 1000; i++, n++)
			if (bpf_map_lookup_elem(fd, &key, &v) != 0) {
				perror("map_hammer: bpf_map_lookup_elem");
				return 1;
			}
	} while (now() - t0 < secs);
	printf("%llu look-ups, %.0f ns each\n", n, (now() - t0) * 1e9 / (double)n);
	return 0;
}
