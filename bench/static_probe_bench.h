/*
 * static_probe_bench.h -- what the translation units of the static-probe
 * benchmark share: the loop every variant runs, and the variants that live
 * outside static_probe_bench.c.
 *
 * The variants sit in three units because two of them need the probe
 * macros compiled differently: static_probe_short.c defines
 * DTRACE_SDT_SHORT_SITE before the generated header, and
 * static_probe_stap.c includes systemtap's <sys/sdt.h>, whose DTRACE_PROBE2
 * has nothing to do with our header's macros.
 */
#ifndef STATIC_PROBE_BENCH_H
#define STATIC_PROBE_BENCH_H

#include <stdint.h>

/* A variant: run its loop n times, return the sum so the work is used. */
typedef uint64_t bench_loop_fn(uint64_t n);

/*
 * The loop of one variant, as an expression worth its final sum:
 * `return BENCH_LOOP(n, site);`.  Every variant is this loop, so any
 * difference between two of them is the probe statement `site` (which may
 * use the loop's i and sum) and the arguments it asks for, nothing else.
 *
 * The body is as small as a body can be and still not be deleted: one add
 * into `sum`, then an empty asm that claims to change `sum`.  The asm makes
 * the sum opaque, so the compiler can neither fold the loop into a closed
 * form nor vectorize it, and it costs no instruction.  A bigger body
 * (a multiply, a store, a call) would hide the probe's nops behind its own
 * latency; this one shows them at their most visible.
 */
#define BENCH_LOOP(n, site)                                   \
	({                                                    \
		uint64_t sum = 0;                             \
                                                              \
		for (uint64_t i = 0; i < (n); i++) {          \
			sum += i;                             \
			site;                                 \
			__asm__ __volatile__("" : "+r"(sum)); \
		}                                             \
		sum;                                          \
	})

/*
 * Every variant is noinline: the table in static_probe_bench.c is its only
 * caller, and a variant inlined into the timing loop would no longer be the
 * same code as its neighbours.
 */
#define BENCH_NOINLINE __attribute__((__noinline__))

/* The peer, when systemtap's header is installed (systemtap-sdt-dev). */
#if defined(__has_include)
#if __has_include(<sys/sdt.h>)
#define BENCH_HAVE_SYS_SDT 1
#endif
#endif
#ifndef BENCH_HAVE_SYS_SDT
#define BENCH_HAVE_SYS_SDT 0
#endif

/* static_probe_short.c: compiled with DTRACE_SDT_SHORT_SITE (one `nop`) */
uint64_t bench_loop_copy(uint64_t n);
uint64_t bench_loop_short_zero(uint64_t n);
uint64_t bench_loop_short_two(uint64_t n);

#if BENCH_HAVE_SYS_SDT
/* static_probe_stap.c: <sys/sdt.h> */
uint64_t bench_loop_stap_two(uint64_t n);
#endif

/* bench_util.c */
int parse_count(const char *s, unsigned long long max, unsigned long long *out);
double now_ns(void);
int pin_to_current_cpu(void);
int compare_double(const void *a, const void *b);
void keep(uint64_t sum);

#endif /* STATIC_PROBE_BENCH_H */
