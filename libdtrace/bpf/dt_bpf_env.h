/*
 * dt_bpf_env.h -- what the C subroutine bodies of libdtrace/bpf/ are
 * written against, for both of their compilers.
 *
 * Built with clang -target bpf (__bpf__), they become BPF subprograms that
 * a probe's program calls (see bpf2c.c and docs/internals.md, "Subroutine
 * bodies").  Built for the host, the same functions run in a unit test
 * (tests/unit/libdtrace/test_bpf_strings.c), with the two helpers below
 * written in C.
 *
 * The rules for a body, from the verifier, which checks a BPF-to-BPF
 * callee with its caller's register states:
 *   - strings are pointers to STRSIZE bytes in a map value; every index
 *     into one is compared with STRSIZE (a constant) or masked first;
 *   - a loop over bytes is a bpf_loop() callback, which the verifier
 *     checks a bounded number of times, not once per byte;
 *   - no globals: arguments and the stack only (512 bytes for a whole
 *     call chain, the clause's own frame included), and the maps a body
 *     names as an extern array (extern char dt_unw_rows[]): bpf2c turns
 *     its address into a relocation to the map of that name, DT_MAP_UNW_ROWS
 *     (dt_program.h), which linking fills in with the run's map.
 */
#ifndef DT_BPF_ENV_H
#define DT_BPF_ENV_H

typedef unsigned long long u64;
typedef long long s64;
typedef unsigned int u32;
typedef unsigned char u8;

#ifdef __bpf__

/*
 * strsize, a constant the verifier knows: the address of this symbol,
 * which bpf2c turns into a relocation that code generation fills in.
 */
extern char dt_strsize_[];
#define STRSIZE ((u64)dt_strsize_)

/* helper ids, as <linux/bpf.h>'s BPF_FUNC_* */
static long (*const bpf_probe_read_kernel_str)(void *dst, u32 size, const void *src) = (void *)115;
static long (*const bpf_loop)(u32 n, long (*cb)(u64 i, void *ctx), void *ctx,
			      u64 flags) = (void *)181;
static long (*const bpf_probe_read_user)(void *dst, u32 size, const void *src) = (void *)112;
static long (*const bpf_probe_read_kernel)(void *dst, u32 size, const void *src) = (void *)113;
/* BPF_FUNC_map_lookup_elem, named apart from libbpf's (tests/unit/kernel_boundary.sh) */
static void *(*const dt_map_lookup)(void *map, const void *key) = (void *)1;
static long (*const dt_map_update)(void *map, const void *key, const void *val,
				   u64 flags) = (void *)2;
static u64 (*const bpf_get_current_pid_tgid)(void) = (void *)14;

/* a subprogram of its own, entered by a call the verifier checks in context */
#define DT_FN __attribute__((noinline))

#else /* the host */

extern u64 dt_host_strsize;
#define STRSIZE			 dt_host_strsize

/* bytes copied, the NUL included, as the kernel's helper returns */
static inline long bpf_probe_read_kernel_str(void *dst, u32 size, const void *src)
{
	char *d = dst;
	const char *s = src;
	u32 i = 0;

	if (size == 0)
		return 0;
	while (i < size - 1 && s[i] != '\0') {
		d[i] = s[i];
		i++;
	}
	d[i] = '\0';
	return (long)i + 1;
}

/* the traced process's memory is the test's own; NULL is a bad address */
static inline long bpf_probe_read_user(void *dst, u32 size, const void *src)
{
	if (src == 0)
		return -14;
	__builtin_memcpy(dst, src, size);
	return 0;
}

/* scratch memory is the test's own too */
static inline long bpf_probe_read_kernel(void *dst, u32 size, const void *src)
{
	return bpf_probe_read_user(dst, size, src);
}

/*
 * maps and the current process are the test's (test_ustack.c), under
 * names of their own: a test linking libbpf has the helpers' names
 */
#define dt_map_lookup		 dt_host_map_lookup
#define dt_map_update		 dt_host_map_update
#define bpf_get_current_pid_tgid dt_host_pid_tgid
void *dt_host_map_lookup(void *map, const void *key);
long dt_host_map_update(void *map, const void *key, const void *val, u64 flags);
u64 dt_host_pid_tgid(void);

static inline long bpf_loop(u32 n, long (*cb)(u64 i, void *ctx), void *ctx, u64 flags)
{
	u32 i;

	(void)flags;
	for (i = 0; i < n; i++)
		if (cb(i, ctx) != 0)
			return (long)i + 1;
	return (long)n;
}

#define DT_FN

#endif /* __bpf__ */

#endif /* DT_BPF_ENV_H */
