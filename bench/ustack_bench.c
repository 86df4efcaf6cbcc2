/*
 * ustack_bench N D: calls down() N times; down() recurses D deep, then
 * calls ustack_leaf(), the probed function.  It prints "ns/call X": what
 * one call of down() costs the caller, probes included.  run_ustack.sh
 * runs it with no tracer, under dtrace's @[ustack()] = count() on
 * ustack_leaf's entry and under bpftrace's @[ustack] = count() on the same
 * uprobe; the difference from no tracer is a hit's cost.  Built -O2
 * -fomit-frame-pointer (bench/CMakeLists.txt), as Debian's binaries are:
 * only the unwind tables can walk this stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

unsigned long ustack_leaf(unsigned long x);
unsigned long down(int d, unsigned long x);

/* real calls, kept as they are written: gcc's noipa; clang has none, its nearest */
#ifdef __clang__
#define NOIPA __attribute__((noinline, disable_tail_calls))
#else
#define NOIPA __attribute__((noipa))
#endif

NOIPA unsigned long ustack_leaf(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* noipa and the result used after the call: a real call, not a jmp */
NOIPA unsigned long down(int d, unsigned long x)
{
	unsigned long v = d > 0 ? down(d - 1, x + 1) : ustack_leaf(x);

	return v ^ (unsigned long)d;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000, sum = 0;
	int d = argc > 2 ? atoi(argv[2]) : 10;
	double start;

	start = now();
	for (unsigned long i = 0; i < n; i++)
		sum += down(d, i);
	printf("ns/call %.1f\n", n ? (now() - start) / (double)n : 0.0);
	return sum == 1;
}
