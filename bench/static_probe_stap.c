/*
 * static_probe_stap.c -- the peer: the same 2-argument probe through
 * systemtap's <sys/sdt.h> (package systemtap-sdt-dev), whose site is one
 * `nop`, with no semaphore.  Without that header this unit is empty and
 * the benchmark leaves the row out.
 */
#include "static_probe_bench.h"

#if BENCH_HAVE_SYS_SDT
#include <sys/sdt.h>

BENCH_NOINLINE uint64_t bench_loop_stap_two(uint64_t n)
{
	return BENCH_LOOP(n, DTRACE_PROBE2(bench, stap_two, i, sum));
}
#endif
