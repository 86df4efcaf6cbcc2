/*
 * static_probe_short.c -- the variants with the classic one-byte site: the
 * generated header gives a bare `nop` instead of `nop` plus a 10-byte nop
 * when DTRACE_SDT_SHORT_SITE is defined before it.  CMake defines it for
 * this file alone.
 *
 * bench_loop_copy is the baseline loop again, at another address: what it
 * differs from the baseline is what code placement alone does.
 */
#include "static_probe_bench.h"

#ifndef DTRACE_SDT_SHORT_SITE
#error "static_probe_short.c must be compiled with -DDTRACE_SDT_SHORT_SITE"
#endif

#include "bench_probes.h"

BENCH_NOINLINE uint64_t bench_loop_copy(uint64_t n)
{
	return BENCH_LOOP(n, (void)0);
}

BENCH_NOINLINE uint64_t bench_loop_short_zero(uint64_t n)
{
	return BENCH_LOOP(n, BENCH_ZERO());
}

BENCH_NOINLINE uint64_t bench_loop_short_two(uint64_t n)
{
	return BENCH_LOOP(n, BENCH_TWO(i, sum));
}
