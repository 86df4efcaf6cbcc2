/*
 * static_probe_bench.c -- what a disabled static probe costs per call,
 * against the same loop without it.
 *
 *   static_probe_bench [iterations [repetitions]]    (default 200000000 7)
 *
 * Every variant is the same loop (BENCH_LOOP in static_probe_bench.h) with
 * one probe statement in its body, or none for the baseline.  Each runs
 * `repetitions` times, interleaved with the others so that a slow spell of
 * the machine falls on all of them alike, and its best run counts: noise
 * (interrupts, other processes, frequency changes) only ever adds time.
 * The table gives ns per iteration, the difference from the baseline and
 * the ratio to it.  Two figures say how large a difference noise alone
 * makes: the spread of the baseline's runs, and a second copy of the
 * baseline loop at another address.  Figures to read, not a test: nothing
 * here passes or fails, and ctest does not run it.
 *
 * Build and run:
 *
 *   cmake --build build --target static_probe_bench && build/bench/static_probe_bench
 *
 * or bench/run_static.sh, which also says what machine the figures are from.
 *
 * What the compiler made of the loops, checked with objdump -d on gcc 12.2
 * and clang 14 at -O2, both as wanted:
 *   - the baseline is `add %rdx,%rax; add $0x1,%rdx; cmp %rdx,%rdi; jne`
 *     (gcc; clang uses %rcx): the empty asm on sum costs no instruction;
 *   - ZERO and TWO are that loop plus the site's `nop` and 10-byte
 *     `cs nopw`, nothing else: i and sum go to the probe in the registers
 *     they already live in; the short site and gcc's <sys/sdt.h> add one
 *     `nop`;
 *   - SIX adds six instructions (mov, movzbl, mov, and, shr, add) computing
 *     its other four arguments, the address of ring hoisted out of the loop;
 *   - the ENABLED() loops add a 2-byte load of the semaphore, a test and a
 *     branch (clang: one cmpw and a branch); the site and its argument work
 *     are out of line, after the ret;
 *   - clang gives <sys/sdt.h>'s "nor" operands memory, so its DTRACE_PROBE2
 *     stores both arguments to the stack on every call, while our header's
 *     "nr" operands stay in registers: that row differs between compilers.
 * To check again after changing the loop or the header:
 *
 *   objdump -d --no-show-raw-insn build/bench/static_probe_bench |
 *     awk '/<(loop_|bench_loop)/,/^$/'
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "static_probe_bench.h"
#include "bench_probes.h"

#define DEFAULT_ITERATIONS 200000000ULL
#define DEFAULT_REPS	   7
#define MAX_REPS	   101

/* bench:::six points into it; nothing reads it */
static const char ring[16];

/*
 * bench:::six inside BENCH_LOOP: i and sum as they are, and four arguments
 * computed for the probe alone, as a real probe's often are.
 */
#define SIX() BENCH_SIX(i, sum, (int)(i & 0xff), (int)(sum >> 32), ring, &ring[i & 15])

static BENCH_NOINLINE uint64_t loop_base(uint64_t n)
{
	return BENCH_LOOP(n, (void)0);
}

static BENCH_NOINLINE uint64_t loop_zero(uint64_t n)
{
	return BENCH_LOOP(n, BENCH_ZERO());
}

static BENCH_NOINLINE uint64_t loop_two(uint64_t n)
{
	return BENCH_LOOP(n, BENCH_TWO(i, sum));
}

static BENCH_NOINLINE uint64_t loop_six(uint64_t n)
{
	return BENCH_LOOP(n, SIX());
}

static BENCH_NOINLINE uint64_t loop_enabled_two(uint64_t n)
{
	return BENCH_LOOP(n, if (BENCH_TWO_ENABLED()) BENCH_TWO(i, sum));
}

static BENCH_NOINLINE uint64_t loop_enabled_six(uint64_t n)
{
	return BENCH_LOOP(n, if (BENCH_SIX_ENABLED()) SIX());
}

struct variant {
	const char *name;
	bench_loop_fn *fn;
};

/* The baseline must stay first: every other row is measured against it. */
static const struct variant variants[] = {
	{ "baseline: loop body, no probe", loop_base },
	{ "baseline copy, other address", bench_loop_copy },
	{ "ZERO()      nop+nop10", loop_zero },
	{ "TWO(2 args) nop+nop10", loop_two },
	{ "SIX(6 args) nop+nop10", loop_six },
	{ "ZERO()      short: nop", bench_loop_short_zero },
	{ "TWO(2 args) short: nop", bench_loop_short_two },
	{ "if (TWO_ENABLED()) TWO()", loop_enabled_two },
	{ "if (SIX_ENABLED()) SIX()", loop_enabled_six },
#if BENCH_HAVE_SYS_SDT
	{ "<sys/sdt.h> DTRACE_PROBE2", bench_loop_stap_two },
#endif
};

#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static void usage(FILE *fp, const char *pname)
{
	fprintf(fp,
		"Usage: %s [iterations [repetitions]]\n"
		"\tTime loops with disabled static probes against the same loop\n"
		"\twithout one; print ns per iteration, best of the repetitions.\n"
		"\tDefaults: %llu iterations, %d repetitions (at most %d).\n",
		pname, DEFAULT_ITERATIONS, DEFAULT_REPS, MAX_REPS);
}

static int any_enabled(void)
{
	return BENCH_ZERO_ENABLED() || BENCH_TWO_ENABLED() || BENCH_SIX_ENABLED();
}

int main(int argc, char *argv[])
{
	static double ns[NVARIANTS][MAX_REPS];
	unsigned long long iters = DEFAULT_ITERATIONS, reps = DEFAULT_REPS;
	double best[NVARIANTS], median[NVARIANTS], worst[NVARIANTS], sorted[MAX_REPS];
	double noise;
	int cpu, traced;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout, argv[0]);
		return 0;
	}
	if (argc > 3 || (argc > 1 && parse_count(argv[1], UINT64_MAX, &iters) != 0) ||
	    (argc > 2 && parse_count(argv[2], MAX_REPS, &reps) != 0)) {
		fprintf(stderr, "%s: iterations and repetitions are counts from 1\n", argv[0]);
		usage(stderr, argv[0]);
		return 2;
	}

	cpu = pin_to_current_cpu();
	traced = any_enabled();

	/* untimed, so that the clock has ramped up and the code is in cache */
	for (size_t v = 0; v < NVARIANTS; v++)
		keep(variants[v].fn(iters / 10 + 1));

	for (unsigned r = 0; r < reps; r++) {
		/* each run starts one variant further on: none always follows another */
		for (size_t k = 0; k < NVARIANTS; k++) {
			size_t v = (r + k) % NVARIANTS;
			double t0 = now_ns();

			keep(variants[v].fn(iters));
			ns[v][r] = (now_ns() - t0) / (double)iters;
		}
	}
	traced |= any_enabled();

	for (size_t v = 0; v < NVARIANTS; v++) {
		memcpy(sorted, ns[v], reps * sizeof(sorted[0]));
		qsort(sorted, reps, sizeof(sorted[0]), compare_double);
		best[v] = sorted[0];
		median[v] = sorted[reps / 2];
		worst[v] = sorted[reps - 1];
	}

	printf("static probes, disabled: %llu iterations, best of %llu run%s, ", iters, reps,
	       reps == 1 ? "" : "s");
	if (cpu >= 0)
		printf("pinned to CPU %d\n\n", cpu);
	else
		printf("not pinned\n\n");
	/*
	 * The noise: how far the baseline's runs spread (worst minus best), or
	 * how far the best of an identical loop at another address (the copy)
	 * lands from the baseline's, whichever is larger.  A variant no further
	 * than that from the baseline, either way, is marked: this run cannot
	 * tell its cost from nothing.  Marking beyond a smaller yardstick, such
	 * as the median's distance from the best, flagged variants as faster
	 * than the baseline on a quiet run of this 2-CPU VM: a best-of-7 moves
	 * by more than that between identical loops.
	 */
	noise = worst[0] - best[0];
	if (fabs(best[1] - best[0]) > noise)
		noise = fabs(best[1] - best[0]);

	printf("%-30s %7s %7s %11s %6s\n", "ns per iteration", "best", "median", "vs baseline",
	       "ratio");
	for (size_t v = 0; v < NVARIANTS; v++) {
		printf("%-30s %7.3f %7.3f", variants[v].name, best[v], median[v]);
		if (v == 0)
			printf(" %11s %6s\n", "", "1.000");
		else
			printf(" %+11.3f %6.3f%s\n", best[v] - best[0], best[v] / best[0],
			       fabs(best[v] - best[0]) <= noise ? "  within noise" : "");
	}
	printf("\nnoise: the baseline's %llu runs span %.3f .. %.3f ns (median %+.1f%%, worst "
	       "%+.1f%%);\n"
	       "       its copy at another address differs by %+.3f ns;\n"
	       "       \"within noise\": no further from the baseline than %.3f ns\n",
	       reps, best[0], worst[0], 100 * (median[0] / best[0] - 1),
	       100 * (worst[0] / best[0] - 1), best[1] - best[0], noise);
	if (traced)
		printf("\nwarning: a bench probe was enabled (a tracer attached) during the run:\n"
		       "these are not the figures of disabled probes\n");
	return 0;
}
