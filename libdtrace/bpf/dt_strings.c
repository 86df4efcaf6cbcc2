/*
 * dt_strings.c -- the bodies of D's string subroutines, in C, compiled to
 * BPF at build time (dt_bpf_env.h has the rules) and unit-tested on the
 * host.  Each dt_NAME is called by the code dt_cg.c generates for NAME():
 * its string arguments are pointers to STRSIZE bytes holding a NUL, its
 * result (a string) goes to dst, a temporary of STRSIZE bytes the caller
 * reserved, distinct from every argument.
 *
 * Semantics are illumos's (uts/common/dtrace/dtrace.c, dtrace_dif_subr),
 * cited at each function.
 */
#include "dt_bpf_env.h"

/* the entry points dt_cg.c calls (and the host's unit test) */
char *dt_substr(char *dst, const char *s, s64 index, s64 remaining);

/* strlen(s), measured by copying s to dst (which the caller overwrites after) */
static DT_FN s64 len_by_copy(char *dst, const char *s)
{
	long n = bpf_probe_read_kernel_str(dst, STRSIZE, s);

	return n > 0 ? n - 1 : 0;
}

/*
 * substr(s, index, remaining): illumos DIF_SUBR_SUBSTR.  A negative index
 * counts from the end; one before the start shortens remaining by as
 * much; an index at or past the end gives ""; a negative remaining leaves
 * that many bytes off the end.  The caller passes remaining = STRSIZE when
 * the script gave none.
 */
DT_FN char *dt_substr(char *dst, const char *s, s64 index, s64 remaining)
{
	s64 len = len_by_copy(dst, s);
	u64 n;

	if (index < 0) {
		index += len;
		if (index < 0 && index + remaining > 0) {
			remaining += index;
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if (index + remaining > (s64)STRSIZE)
		remaining = (s64)STRSIZE - index;
	dst[0] = '\0';
	if (remaining <= 0)
		return dst;
	/* index is in [0, len): s + index is in s; n bytes and the NUL fit dst */
	n = (u64)remaining;
	if (n > STRSIZE - 1)
		n = STRSIZE - 1;
	bpf_probe_read_kernel_str(dst, (u32)n + 1, s + index);
	return dst;
}
