/*
 * test_bpf_strings.c -- the C bodies of D's string subroutines
 * (libdtrace/bpf/dt_strings.c), built for the host, against the values
 * illumos's dtrace_dif_subr gives (worked out by hand from its code),
 * edge cases first: empty strings, indices before the start and past the
 * end, the extremes of int64_t, strings of strsize - 1 bytes.  The same
 * source, compiled to BPF, is what probes run; the goldens in
 * tests/d/strings check it there.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "bpf/dt_strings.c"

u64 dt_host_strsize;

#define MAXSIZE 4096

/* arguments live in buffers of strsize bytes, as in the scratch value */
static char arg[4][MAXSIZE], dst[MAXSIZE];

static const char *put(int i, const char *s)
{
	memset(arg[i], 'Z', sizeof(arg[i]));
	strncpy(arg[i], s, STRSIZE - 1);
	arg[i][STRSIZE - 1] = '\0';
	return arg[i];
}

static const char *substr3(const char *s, s64 index, s64 len)
{
	memset(dst, 'X', sizeof(dst));
	return dt_substr(dst, put(0, s), index, len);
}

static const char *substr2(const char *s, s64 index)
{
	return substr3(s, index, (s64)STRSIZE);
}

static void test_substr(void)
{
	const char *p = "/usr/lib/../bin/dtrace";

	dt_host_strsize = 256;
	CHECK_STR(substr2(p, 5), "lib/../bin/dtrace");
	CHECK_STR(substr3(p, 5, 3), "lib");
	CHECK_STR(substr2(p, -6), "dtrace");
	CHECK_STR(substr2(p, 0), p);
	CHECK_STR(substr3(p, 0, 0), "");
	CHECK_STR(substr2(p, 21), "e");
	CHECK_STR(substr2(p, 22), "");
	CHECK_STR(substr2(p, 12345678), "");
	CHECK_STR(substr3("hello", -10, 7), "he"); /* 5 before the start: 2 remain */
	CHECK_STR(substr3("hello", -10, 5), "");
	CHECK_STR(substr3("hello", -10, 6), "h");
	CHECK_STR(substr2("hello", -10), "hello");
	CHECK_STR(substr3("hello", 1, -2), "el");
	CHECK_STR(substr3("hello", 1, -4), "");
	CHECK_STR(substr3("hello", 1, -100), "");
	CHECK_STR(substr3("hello", -2, 100), "lo");
	CHECK_STR(substr2("", 0), "");
	CHECK_STR(substr3("", -1, 1), "");
	CHECK_STR(substr3("", 0, -1), "");
	CHECK_STR(substr3(p, INT64_MIN, 2), "");
	/* illumos's int64_t sums wrap: index + remaining is 21 here, so 21 remain */
	CHECK_STR(substr3(p, INT64_MIN, INT64_MAX), "/usr/lib/../bin/dtrac");
	CHECK_STR(substr3(p, 2, INT64_MAX), "sr/lib/../bin/dtrace");
	CHECK_STR(substr3(p, INT64_MAX, 1), "");
	CHECK_STR(substr3(p, -1, INT64_MIN), "");

	/* the longest string strsize holds, and the result cut there */
	dt_host_strsize = 8;
	CHECK_STR(substr2("abcdefghij", 0), "abcdefg");
	CHECK_STR(substr2("abcdefghij", -1), "g");
	CHECK_STR(substr3("abcdefghij", 6, 5), "g");
	CHECK_STR(substr3("abcdefghij", 7, 5), "");
}

int main(void)
{
	test_substr();
	return CHECK_DONE();
}
