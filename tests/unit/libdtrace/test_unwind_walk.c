/*
 * test_unwind_walk.c -- the tables of dt_unwind.c walked by the user
 * stack walker (bpf/dt_ustack.c, its host build) on this program's own
 * stack, from a function four calls deep: the return addresses must be
 * the ones glibc's backtrace() (libgcc's DWARF unwinder) gives, down to
 * _start.  The build's -O2 code has no frame pointers, so a frame
 * pointer walk would not get past the first frame.
 */
#include <execinfo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "bpf/dt_ustack.c"
#include "dt_unwind.h"

#define NFR 64

char dt_unw_rows[1], dt_unw_procs[1], dt_unw_req[1]; /* the host's maps: tags */
u64 dt_host_strsize = 256;
static const dt_unw_row_t *rows;
static uint32_t nrows;
static dt_unw_proc_t proc;

void *dt_host_map_lookup(void *map, const void *key);
u64 dt_host_pid_tgid(void);

void *dt_host_map_lookup(void *map, const void *key)
{
	u32 k = *(const u32 *)key;

	if (map == dt_unw_rows)
		return k < nrows ? (void *)&rows[k] : NULL;
	if (map == dt_unw_procs)
		return k == (u32)getpid() ? &proc : NULL;
	return NULL;
}

long dt_host_map_update(void *map, const void *key, const void *val, u64 flags)
{
	(void)map, (void)key, (void)val, (void)flags;
	return -7; /* -E2BIG: no requests here (the process has its tables) */
}

u64 dt_host_pid_tgid(void)
{
	return (u64)getpid() << 32 | (u32)getpid();
}

static u64 walked[NFR];
static void *bt[NFR];
static int nbt;
static u64 res;

/* The walk from here, and backtrace() from the same frame. */
__attribute__((noinline)) static int innermost(int depth)
{
	u64 pc, sp, bp;

	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(pc), "=r"(sp), "=r"(bp));
	res = dt_ustack(walked, NFR, pc, sp, bp);
	nbt = backtrace(bt, NFR);
	return depth + nbt;
}

/* noinline, and the result used, so that each frame stays a frame (no tail calls) */
__attribute__((noinline)) static int level(int depth)
{
	int r = depth == 0 ? innermost(depth) : level(depth - 1);

	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

int main(void)
{
	dt_unw_t *u = dt_unw_create(1 << 20);
	dt_pmap_t *pm = NULL;
	int same = 0;

	CHECK_INT(dt_pmap_read(getpid(), &pm), 0);
	CHECK_INT(dt_unw_proc(u, pm, &proc, NULL), 0);
	rows = dt_unw_table(u, &nrows);
	CHECK(level(3) > 0);

	int n = (int)DT_USTACK_NFRAMES(res);

	printf("walker: %d frames (flags %#llx), backtrace(): %d\n", n, res >> 32, nbt);
	for (int i = 0; i < n || i < nbt; i++)
		printf("  %2d %#18llx %#18llx\n", i, i < n ? walked[i] : 0ull,
		       i < nbt ? (unsigned long long)(uintptr_t)bt[i] : 0ull);
	CHECK_INT(res >> 32, 0);
	/*
	 * the first frames differ (our PC is the lea's, backtrace's a return
	 * address in innermost, after ASan's interceptor's in the sanitizer
	 * build); from the caller of innermost on they are the same: level x
	 * 4, main, __libc_start_call_main, __libc_start_main, _start
	 */
	int k = 0;

	while (k < nbt && n > 1 && (u64)(uintptr_t)bt[k] != walked[1])
		k++;
	CHECK(nbt - k >= 8);
	CHECK_INT(n - 1, nbt - k);
	for (int i = 1; i < n && i - 1 + k < nbt; i++)
		same += walked[i] == (u64)(uintptr_t)bt[i - 1 + k];
	CHECK_INT(same, n - 1);
	dt_pmap_free(pm);
	dt_unw_destroy(u);
	return CHECK_DONE();
}
