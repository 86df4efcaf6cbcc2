/*
 * usdt_bench.c -- what a libusdt probe costs per fire, with no tracer and
 * with one, against a static probe from `dtrace -h` measured in the same
 * run.
 *
 *   usdt_bench [iterations [repetitions]]            (default 50000000 7)
 *   usdt_bench enabled [iterations [repetitions]]    (default 200000 5)
 *
 * Both modes create and enable two runtime providers "ub", one per site
 * form: module "benchnop5" (the default: each probe function starts with a
 * 5-byte nop) and module "benchnop1" (USDT_SITE_NOP1).  Each has one probe,
 * ub:loop:two(uint64_t i, uint64_t sum), the signature of the static
 * bench:::two of bench_probes.d, so the two kinds of probe carry the same
 * arguments.
 *
 * Without "enabled" nothing should trace the probes: every variant is the
 * loop of static_probe_bench (BENCH_LOOP in static_probe_bench.h) with one
 * probe statement in its body, timed as static_probe_bench times its own
 * (best of interleaved runs, pinned, noise from the baseline's spread and a
 * copy of it at another address).  A libusdt fire is a call into the
 * library, whose body loads the semaphore and returns; the static site is
 * nops in the loop itself.
 *
 * With "enabled" the program prints the image path of each provider
 * ("path nop5 P", "path nop1 P"), waits (30 s at most) until a tracer has
 * enabled ub:loop:two in both images and bench:::two in this binary, then
 * times `iterations` fires of each, best of `repetitions`, and prints how
 * many fires each probe got in all, so that the tracer's counts can be
 * checked against it.  bench/run_usdt.sh runs both modes, the second under
 * bpftrace.
 *
 * Figures to read, not a test: nothing here passes or fails, and ctest
 * does not run it.
 *
 * What the compiler made of the loops, checked with objdump -d on gcc 12.2
 * and clang 14 at -O2:
 *   - the baseline and the static rows are static_probe_bench's loops;
 *   - a fire2 loop reloads the probe handle from memory, moves it, i and
 *     sum into %rdi, %rsi and %rdx and calls usdt_probe_fire2, which tests
 *     the handle, loads the semaphore pointer, then the semaphore, and
 *     returns (enabled, it jumps to the probe function, whose `ret` comes
 *     back to the loop);
 *   - the is_enabled loop calls usdt_probe_is_enabled, then
 *     usdt_probe_fire2 on non-zero only (gcc keeps that call in the loop,
 *     clang moves it out of line);
 *   - the array loop stores i and sum to the stack and calls
 *     usdt_probe_fire, which zeroes its 12-slot argument array (gcc:
 *     `rep stos`; clang: six 16-byte stores) and checks the handle, the
 *     provider's liveness and the count before it loads the semaphore.
 * To check again:
 *
 *   objdump -d --no-show-raw-insn build/bench/usdt_bench |
 *     awk '/<(loop_|usdt_probe_)/,/^$/'
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "usdt.h"
#include "static_probe_bench.h"
#include "bench_probes.h"

#define DEFAULT_ITERATIONS	   50000000ULL
#define DEFAULT_REPS		   7
#define DEFAULT_ENABLED_ITERATIONS 200000ULL
#define DEFAULT_ENABLED_REPS	   5
#define MAX_REPS		   101
#define MAX_VARIANTS		   16
#define ATTACH_TIMEOUT_S	   30

/*
 * Set once in main before any loop runs; the loops read them as a program
 * that keeps its probe handles in globals would.
 */
static usdt_probe_t *p_nop5, *p_nop1;

static BENCH_NOINLINE uint64_t loop_base(uint64_t n)
{
	return BENCH_LOOP(n, (void)0);
}

static BENCH_NOINLINE uint64_t loop_static_two(uint64_t n)
{
	return BENCH_LOOP(n, BENCH_TWO(i, sum));
}

static BENCH_NOINLINE uint64_t loop_static_guard(uint64_t n)
{
	return BENCH_LOOP(n, if (BENCH_TWO_ENABLED()) BENCH_TWO(i, sum));
}

static BENCH_NOINLINE uint64_t loop_fire2_nop5(uint64_t n)
{
	return BENCH_LOOP(n, usdt_probe_fire2(p_nop5, i, sum));
}

static BENCH_NOINLINE uint64_t loop_fire2_nop1(uint64_t n)
{
	return BENCH_LOOP(n, usdt_probe_fire2(p_nop1, i, sum));
}

static BENCH_NOINLINE uint64_t loop_guard_nop5(uint64_t n)
{
	return BENCH_LOOP(n, if (usdt_probe_is_enabled(p_nop5)) usdt_probe_fire2(p_nop5, i, sum));
}

/* The array path as a caller uses it: the arguments built on the stack. */
static inline __attribute__((__always_inline__)) void fire_array(usdt_probe_t *p, uint64_t a0,
								 uint64_t a1)
{
	const usdt_arg_t args[2] = { { .u = a0 }, { .u = a1 } };

	(void)usdt_probe_fire(p, 2, args);
}

static BENCH_NOINLINE uint64_t loop_array_nop5(uint64_t n)
{
	return BENCH_LOOP(n, fire_array(p_nop5, i, sum));
}

struct variant {
	const char *name;
	bench_loop_fn *fn;
};

/* The baseline and its copy must stay first and second: the noise comes from them. */
static const struct variant disabled_variants[] = {
	{ "baseline: loop body, no probe", loop_base },
	{ "baseline copy, other address", bench_loop_copy },
	{ "static TWO()  nop+nop10", loop_static_two },
	{ "static if (TWO_ENABLED()) TWO()", loop_static_guard },
	{ "usdt fire2()  nop5", loop_fire2_nop5 },
	{ "usdt fire2()  nop1", loop_fire2_nop1 },
	{ "usdt if (is_enabled()) fire2()", loop_guard_nop5 },
	{ "usdt fire(2, array)", loop_array_nop5 },
};

/* The static probe must stay first: the others are measured against it. */
static const struct variant enabled_variants[] = {
	{ "static TWO()  nop+nop10", loop_static_two },
	{ "usdt fire2()  nop5", loop_fire2_nop5 },
	{ "usdt fire2()  nop1", loop_fire2_nop1 },
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

_Static_assert(NELEMS(disabled_variants) <= MAX_VARIANTS, "raise MAX_VARIANTS");
_Static_assert(NELEMS(enabled_variants) <= MAX_VARIANTS, "raise MAX_VARIANTS");

/* What the runs of one variant came to, in ns per iteration. */
struct result {
	double best, median, worst;
};

static void usage(FILE *fp, const char *pname)
{
	fprintf(fp,
		"Usage: %s [iterations [repetitions]]\n"
		"       %s enabled [iterations [repetitions]]\n"
		"\tTime libusdt fires against a static probe and a loop without one;\n"
		"\tprint ns per iteration, best of the repetitions.\n"
		"\tNo tracer: defaults %llu iterations, %d repetitions.\n"
		"\tenabled: print the image paths, wait for a tracer on ub:loop:two\n"
		"\tin both images and on bench:::two, then time the fires;\n"
		"\tdefaults %llu iterations, %d repetitions (at most %d).\n",
		pname, pname, DEFAULT_ITERATIONS, DEFAULT_REPS, DEFAULT_ENABLED_ITERATIONS,
		DEFAULT_ENABLED_REPS, MAX_REPS);
}

static void measure(const struct variant *vs, size_t nv, uint64_t iters, uint64_t warm,
		    unsigned reps, struct result *res)
{
	static double ns[MAX_VARIANTS][MAX_REPS];
	double sorted[MAX_REPS];

	for (size_t v = 0; v < nv; v++)
		keep(vs[v].fn(warm));
	for (unsigned r = 0; r < reps; r++) {
		for (size_t k = 0; k < nv; k++) {
			size_t v = (r + k) % nv;
			double t0 = now_ns();

			keep(vs[v].fn(iters));
			ns[v][r] = (now_ns() - t0) / (double)iters;
		}
	}
	for (size_t v = 0; v < nv; v++) {
		memcpy(sorted, ns[v], reps * sizeof(sorted[0]));
		qsort(sorted, reps, sizeof(sorted[0]), compare_double);
		res[v].best = sorted[0];
		res[v].median = sorted[reps / 2];
		res[v].worst = sorted[reps - 1];
	}
}

static usdt_probe_t *make_probe(const char *module, unsigned flags, const char **path)
{
	static const usdt_argtype_t types[2] = { USDT_ARG_UINT64, USDT_ARG_UINT64 };
	struct usdt_provider_opts opts = { .sz = sizeof(opts), .flags = flags };
	usdt_provider_t *prov;
	usdt_probe_t *p;
	int err;

	prov = usdt_provider_create("ub", module, &opts, &err);
	if (prov == NULL) {
		fprintf(stderr, "usdt_bench: usdt_provider_create %s: %s\n", module,
			usdt_strerror(err));
		return NULL;
	}
	p = usdt_probe_create(prov, "loop", "two", 2, types);
	if (p == NULL || usdt_provider_enable(prov) != 0) {
		fprintf(stderr, "usdt_bench: provider %s: %s\n", module,
			usdt_provider_errmsg(prov));
		return NULL;
	}
	/* the provider lives until exit, which removes its image */
	*path = usdt_provider_path(prov);
	return p;
}

static int any_enabled(void)
{
	return BENCH_TWO_ENABLED() || usdt_probe_is_enabled(p_nop5) ||
	       usdt_probe_is_enabled(p_nop1);
}

static int all_enabled(void)
{
	return BENCH_TWO_ENABLED() && usdt_probe_is_enabled(p_nop5) &&
	       usdt_probe_is_enabled(p_nop1);
}

/*
 * Has the kernel mapped its uprobe trampoline into us?  Linux 6.18 does so
 * when it turns a probed 5-byte nop into a call; without it every enabled
 * fire is an int3 trap.
 */
static int have_uprobe_trampoline(void)
{
	char line[512];
	FILE *fp = fopen("/proc/self/maps", "r");
	int found = 0;

	if (fp == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), fp) != NULL)
		found = strstr(line, "[uprobes-trampoline]") != NULL;
	fclose(fp);
	return found;
}

static const char *yes_no(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

static void print_header(const char *what, unsigned long long iters, unsigned long long reps,
			 int cpu)
{
	printf("%s: %llu iterations, best of %llu run%s, ", what, iters, reps,
	       reps == 1 ? "" : "s");
	if (cpu >= 0)
		printf("pinned to CPU %d\n\n", cpu);
	else
		printf("not pinned\n\n");
}

static void run_disabled(unsigned long long iters, unsigned long long reps, int cpu)
{
	const size_t nv = NELEMS(disabled_variants);
	struct result res[MAX_VARIANTS];
	double noise, base;
	int traced = any_enabled();

	measure(disabled_variants, nv, iters, iters / 10 + 1, (unsigned)reps, res);
	traced |= any_enabled();

	print_header("usdt probes, no tracer", iters, reps, cpu);
	/* static_probe_bench's yardstick: see the comment there */
	base = res[0].best;
	noise = res[0].worst - base;
	if (fabs(res[1].best - base) > noise)
		noise = fabs(res[1].best - base);

	printf("%-34s %7s %7s %11s %6s\n", "ns per iteration", "best", "median", "vs baseline",
	       "ratio");
	for (size_t v = 0; v < nv; v++) {
		printf("%-34s %7.3f %7.3f", disabled_variants[v].name, res[v].best, res[v].median);
		if (v == 0)
			printf(" %11s %6s\n", "", "1.000");
		else
			printf(" %+11.3f %6.3f%s\n", res[v].best - base, res[v].best / base,
			       fabs(res[v].best - base) <= noise ? "  within noise" : "");
	}
	printf("\nnoise: the baseline's %llu runs span %.3f .. %.3f ns (median %+.1f%%, worst "
	       "%+.1f%%);\n"
	       "       its copy at another address differs by %+.3f ns;\n"
	       "       \"within noise\": no further from the baseline than %.3f ns\n",
	       reps, base, res[0].worst, 100 * (res[0].median / base - 1),
	       100 * (res[0].worst / base - 1), res[1].best - base, noise);
	if (traced)
		printf("\nwarning: a probe was enabled (a tracer attached) during the run:\n"
		       "these are not the figures of disabled probes\n");
}

static int run_enabled(unsigned long long iters, unsigned long long reps, int cpu)
{
	const size_t nv = NELEMS(enabled_variants);
	uint64_t warm = iters / 10 + 1;
	struct result res[MAX_VARIANTS];
	double deadline = now_ns() + ATTACH_TIMEOUT_S * 1e9, base;
	int tramp_before, tramp_after, detached;

	while (!all_enabled()) {
		if (now_ns() > deadline) {
			fprintf(stderr,
				"usdt_bench: no tracer on every probe after %d s "
				"(ub nop5 %d, ub nop1 %d, bench %d)\n",
				ATTACH_TIMEOUT_S, usdt_probe_is_enabled(p_nop5),
				usdt_probe_is_enabled(p_nop1), BENCH_TWO_ENABLED());
			return 1;
		}
		usleep(1000);
	}
	tramp_before = have_uprobe_trampoline();
	measure(enabled_variants, nv, iters, warm, (unsigned)reps, res);
	detached = !all_enabled();
	tramp_after = have_uprobe_trampoline();

	print_header("probes under a tracer", iters, reps, cpu);
	base = res[0].best;
	printf("%-34s %9s %9s %10s %6s\n", "ns per fire", "best", "median", "vs static", "ratio");
	for (size_t v = 0; v < nv; v++) {
		/*
		 * No copy of a loop to measure placement here: a fire costs
		 * hundreds of cycles, and the spread of the two rows' own
		 * runs is the larger yardstick.
		 */
		double noise = fmax(res[0].worst - base, res[v].worst - res[v].best);

		printf("%-34s %9.1f %9.1f", enabled_variants[v].name, res[v].best, res[v].median);
		if (v == 0)
			printf(" %10s %6s\n", "", "1.000");
		else
			printf(" %+10.1f %6.3f%s\n", res[v].best - base, res[v].best / base,
			       fabs(res[v].best - base) <= noise ? "  within noise" : "");
	}
	printf("\nnoise: each row's runs span (worst / best - 1):");
	for (size_t v = 0; v < nv; v++)
		printf(" %+.1f%%", 100 * (res[v].worst / res[v].best - 1));
	printf(";\n       \"within noise\": no further from the static row than the\n"
	       "       spread of its runs or of the static row's\n");
	printf("fires per probe, warm-up included: %llu\n",
	       (unsigned long long)(warm + iters * reps));
	printf("[uprobes-trampoline] mapped: %s before the runs, %s after\n", yes_no(tramp_before),
	       yes_no(tramp_after));
	if (detached)
		printf("\nwarning: the tracer detached from a probe during the run:\n"
		       "some fires were not traced\n");
	return 0;
}

int main(int argc, char *argv[])
{
	const char *path5 = NULL, *path1 = NULL;
	unsigned long long iters, reps;
	int enabled = 0, cpu, a = 1;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout, argv[0]);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "enabled") == 0) {
		enabled = 1;
		a++;
	}
	iters = enabled ? DEFAULT_ENABLED_ITERATIONS : DEFAULT_ITERATIONS;
	reps = enabled ? DEFAULT_ENABLED_REPS : DEFAULT_REPS;
	if (argc > a + 2 || (argc > a && parse_count(argv[a], UINT64_MAX / 2, &iters) != 0) ||
	    (argc > a + 1 && parse_count(argv[a + 1], MAX_REPS, &reps) != 0)) {
		fprintf(stderr, "%s: iterations and repetitions are counts from 1\n", argv[0]);
		usage(stderr, argv[0]);
		return 2;
	}

	p_nop5 = make_probe("benchnop5", 0, &path5);
	p_nop1 = make_probe("benchnop1", USDT_SITE_NOP1, &path1);
	if (p_nop5 == NULL || p_nop1 == NULL)
		return 1;
	/*
	 * Fail here rather than time the array path's early return: it checks
	 * the count before the semaphore.
	 */
	if (usdt_probe_fire(p_nop5, 2, (const usdt_arg_t[2]){ { .u = 0 }, { .u = 0 } }) != 0) {
		fprintf(stderr, "usdt_bench: usdt_probe_fire refused its arguments\n");
		return 1;
	}
	cpu = pin_to_current_cpu();

	if (!enabled) {
		run_disabled(iters, reps, cpu);
		return 0;
	}
	/* the tracer's script reads these before it attaches */
	printf("path nop5 %s\npath nop1 %s\n", path5, path1);
	fflush(stdout);
	return run_enabled(iters, reps, cpu);
}
