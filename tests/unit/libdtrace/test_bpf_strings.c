/*
 * test_bpf_strings.c -- the C bodies of D's string subroutines
 * (libdtrace/bpf/dt_strings.c), built for the host, against the values
 * illumos's dtrace_dif_subr gives (worked out by hand from its code),
 * edge cases first: empty strings, indices before the start and past the
 * end, the extremes of int64_t, strings of strsize - 1 bytes.  The same
 * source, compiled to BPF, is what probes run; the goldens in
 * tests/d/strings check it there.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "bpf/dt_strings.c"

u64 dt_host_strsize;

#define MAXSIZE 4096

/* arguments live in buffers of strsize bytes, as in the scratch value */
static char arg[4][MAXSIZE], dst[MAXSIZE];

static const char *in_arg(int i, const char *s)
{
	memset(arg[i], 'Z', sizeof(arg[i]));
	strncpy(arg[i], s, STRSIZE - 1);
	arg[i][STRSIZE - 1] = '\0';
	return arg[i];
}

static const char *substr3(const char *s, s64 index, s64 len)
{
	memset(dst, 'X', sizeof(dst));
	return dt_substr(dst, in_arg(0, s), index, len);
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

static s64 idx(const char *s, const char *sub, s64 pos, int haspos, int r)
{
	in_arg(0, s);
	in_arg(1, sub);
	return r ? dt_rindex(arg[0], arg[1], pos, haspos) : dt_index(arg[0], arg[1], pos, haspos);
}

/* NULL as "(null)", for CHECK_STR */
static const char *nul(const char *p)
{
	return p != NULL ? p : "(null)";
}

static void test_search(void)
{
	const char *p = "/usr/lib/../bin/dtrace";

	dt_host_strsize = 256;
	CHECK_INT(idx(p, "/", 0, 0, 0), 0);
	CHECK_INT(idx(p, "/", 2, 1, 0), 4);
	CHECK_INT(idx(p, "/", 0, 0, 1), 15);
	CHECK_INT(idx(p, "/", 10, 1, 1), 8);
	CHECK_INT(idx("", "", 0, 0, 0), 0);
	CHECK_INT(idx("", "", 7, 1, 0), 0);
	CHECK_INT(idx("", "", -7, 1, 1), 0);
	CHECK_INT(idx("abc", "", 0, 0, 0), 0);
	CHECK_INT(idx("abc", "", 5, 1, 0), 3); /* Perl: the length */
	CHECK_INT(idx("abc", "c", 5, 1, 0), -1);
	CHECK_INT(idx("abc", "c", -5, 1, 0), 2);
	CHECK_INT(idx("abc", "abcd", 0, 0, 0), -1);
	CHECK_INT(idx("aaa", "aa", 1, 1, 0), 1);
	CHECK_INT(idx("", "a", 0, 0, 0), -1);
	CHECK_INT(idx("abc", "", 0, 0, 1), 3);
	CHECK_INT(idx("abc", "", -1, 1, 1), 0); /* Perl: 0 */
	CHECK_INT(idx("abc", "a", -1, 1, 1), -1);
	CHECK_INT(idx("abc", "c", 100, 1, 1), 2);
	CHECK_INT(idx("abcabc", "bc", 0, 0, 1), 4);
	CHECK_INT(idx("abcabc", "bc", 3, 1, 1), 1);
	CHECK_INT(idx("", "a", 0, 0, 1), -1);

	memset(dst, 'X', sizeof(dst));
	CHECK_STR(nul(dt_strstr(dst, in_arg(0, "abc"), in_arg(1, ""))), "abc");
	CHECK_STR(nul(dt_strstr(dst, in_arg(0, ""), in_arg(1, ""))), "");
	CHECK_STR(nul(dt_strstr(dst, in_arg(0, ""), in_arg(1, "a"))), "(null)");
	CHECK_STR(nul(dt_strstr(dst, in_arg(0, "abcbc"), in_arg(1, "bc"))), "bcbc");
	CHECK_STR(nul(dt_strstr(dst, in_arg(0, "abc"), in_arg(1, "x"))), "(null)");
	CHECK_STR(nul(dt_strstr(dst, in_arg(0, "abc"), in_arg(1, "abcd"))), "(null)");
	CHECK_STR(nul(dt_strchr(dst, in_arg(0, "abcabc"), 'c')), "cabc");
	CHECK_STR(nul(dt_strchr(dst, in_arg(0, "abc"), 0)), ""); /* the NUL is a place */
	CHECK_STR(nul(dt_strchr(dst, in_arg(0, "abc"), 'z')), "(null)");
	CHECK_STR(nul(dt_strchr(dst, in_arg(0, "abc"), 'a' + 256)), "abc"); /* as a char */
	CHECK_STR(nul(dt_strrchr(dst, in_arg(0, "a/b/c"), '/')), "/c");
	CHECK_STR(nul(dt_strrchr(dst, in_arg(0, "a/b/c"), 0)), "");
	CHECK_STR(nul(dt_strrchr(dst, in_arg(0, ""), 'a')), "(null)");
}

static void test_case_and_numbers(void)
{
	dt_host_strsize = 256;
	CHECK_STR(dt_toupper(dst, in_arg(0, "MiXeD 123 ~{`@")), "MIXED 123 ~{`@");
	CHECK_STR(dt_tolower(dst, in_arg(0, "MiXeD 123 [@")), "mixed 123 [@");
	CHECK_STR(dt_toupper(dst, in_arg(0, "")), "");
	CHECK_STR(nul(dt_lltostr(dst, -1234, 10)), "-1234");
	CHECK_STR(nul(dt_lltostr(dst, 0, 10)), "0");
	CHECK_STR(nul(dt_lltostr(dst, 0, 16)), "0x0");
	CHECK_STR(nul(dt_lltostr(dst, 0, 8)), "0");
	CHECK_STR(nul(dt_lltostr(dst, 8, 8)), "010");
	CHECK_STR(nul(dt_lltostr(dst, 255, 16)), "0xff");
	CHECK_STR(nul(dt_lltostr(dst, -1, 16)), "0xffffffffffffffff");
	CHECK_STR(nul(dt_lltostr(dst, INT64_MIN, 10)), "-9223372036854775808");
	CHECK_STR(nul(dt_lltostr(dst, INT64_MAX, 10)), "9223372036854775807");
	CHECK_STR(nul(dt_lltostr(dst, -5, 2)),
		  "1111111111111111111111111111111111111111111111111111111111111011");
	CHECK_STR(nul(dt_lltostr(dst, 35, 36)), "z");
	CHECK_STR(nul(dt_lltostr(dst, 1, 1)), "(null)");
	CHECK_STR(nul(dt_lltostr(dst, 1, 37)), "(null)");
	dt_host_strsize = 8; /* cut at strsize */
	CHECK_STR(nul(dt_lltostr(dst, 123456789, 10)), "1234567");
	CHECK_STR(dt_toupper(dst, in_arg(0, "abcdefghij")), "ABCDEFG");
}

static void test_paths(void)
{
	static const char *const cases[][3] = {
		/* s, basename, dirname */
		{ "", ".", "." },
		{ "/", "/", "/" },
		{ "///", "/", "/" },
		{ "a", "a", "." },
		{ "a/", "a", "." },
		{ "/a", "a", "/" },
		{ "a/b", "b", "a" },
		{ "//a//b//", "b", "//a" },
		{ "/usr/lib/../bin/dtrace", "dtrace", "/usr/lib/../bin" },
	};
	static const char *const clean[][2] = {
		{ "/usr/lib/../bin/dtrace", "/usr/bin/dtrace" },
		{ "a//b", "a/b" },
		{ "/./a", "/a" },
		{ "/a/..", "/" },
		{ "a/..", "a" }, /* illumos backs up to the start, and keeps it */
		{ "/a/b/../../c", "/c" },
		{ "/a/./b/.", "/a/b/." },
		{ "/...", "/..." },
		{ "/..x/y", "/..x/y" },
		{ "/.x", "/.x" },
		{ "a/", "a/" },
		{ "", "" },
		{ "/../a", "/a" },
	};
	u64 w[3];

	dt_host_strsize = 256;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_STR(dt_basename(dst, in_arg(0, cases[i][0])), cases[i][1]);
		CHECK_STR(dt_dirname(dst, in_arg(0, cases[i][0])), cases[i][2]);
	}
	for (size_t i = 0; i < sizeof(clean) / sizeof(clean[0]); i++)
		CHECK_STR(dt_cleanpath(dst, in_arg(0, clean[i][0]), w), clean[i][1]);
	dt_host_strsize = 16; /* the output stops 5 bytes before strsize */
	CHECK_STR(dt_cleanpath(dst, in_arg(0, "/abcdefghijklmn"), w), "/abcdefghij");
}

static void test_strtok(void)
{
	static char state[MAXSIZE + 64];

	dt_host_strsize = 256;
	memset(state, 0x55, sizeof(state));
	state[256] = 0;
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, "/"), state)), "(null)"); /* nothing saved */
	CHECK_STR(nul(dt_strtok(dst, in_arg(0, "/usr//lib/"), in_arg(1, "/"), state)), "usr");
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, "/"), state)), "lib");
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, "/"), state)), "(null)");
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, "/"), state)), "(null)");
	CHECK_STR(nul(dt_strtok(dst, in_arg(0, ""), in_arg(1, "/"), state)), "(null)");
	CHECK_STR(nul(dt_strtok(dst, in_arg(0, "abc"), in_arg(1, ""), state)), "abc");
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, ""), state)), "(null)");
	/* the delimiters may change from one call to the next */
	CHECK_STR(nul(dt_strtok(dst, in_arg(0, ",a;b,c"), in_arg(1, ",;"), state)), "a");
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, ","), state)), ";b");
	CHECK_STR(nul(dt_strtok(dst, NULL, in_arg(1, ","), state)), "c");
	CHECK_STR(nul(dt_strtok(dst, in_arg(0, "///"), in_arg(1, "/"), state)), "(null)");
}

/* af's text of the address text (inet_pton's), written as illumos does */
static const char *inet(int af, const char *text, int v4only)
{
	static struct inet_w w;
	unsigned char a[16];

	inet_pton(af == 2 ? AF_INET : AF_INET6, text, a);
	return nul(dt_inet(dst, a, af, v4only, &w));
}

static void test_inet(void)
{
	static struct inet_w w;

	dt_host_strsize = 256;
	CHECK_STR(inet(2, "0.0.0.0", 0), "0.0.0.0");
	CHECK_STR(inet(2, "10.200.0.9", 0), "10.200.0.9");
	CHECK_STR(inet(2, "255.255.255.255", 0), "255.255.255.255");
	CHECK_STR(inet(10, "::", 0), "::");
	CHECK_STR(inet(10, "::1", 0), "::1");
	CHECK_STR(inet(26, "1::", 0), "1::");
	CHECK_STR(inet(10, "1:0:2:3:4:5:6:7", 0), "1::2:3:4:5:6:7"); /* one group, unlike glibc */
	CHECK_STR(inet(10, "1:0:0:2:0:0:0:3", 0), "1:0:0:2::3");
	CHECK_STR(inet(10, "0:0:1::", 0), "0:0:1::");
	CHECK_STR(inet(10, "1:2:3:4:5:6:7:0", 0), "1:2:3:4:5:6:7:0");
	CHECK_STR(inet(10, "fe80::214:4fff:fe0b:76c8", 0), "fe80::214:4fff:fe0b:76c8");
	CHECK_STR(inet(10, "::ffff:1.2.3.4", 0), "::ffff:1.2.3.4");
	CHECK_STR(inet(10, "::ffff:1.2.3.4", 1), "1.2.3.4");
	CHECK_STR(inet(10, "::1.2.3.4", 0), "::1.2.3.4");
	CHECK_STR(inet(10, "::1.2.3.4", 1), "1.2.3.4");
	CHECK_STR(inet(10, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 0),
		  "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
	CHECK(dt_inet(dst, NULL, 2, 0, &w) == NULL);
	CHECK(dt_inet(dst, dst, 99, 0, &w) == (char *)1);
}

static s64 ll(const char *s, s64 base)
{
	return dt_strtoll(in_arg(0, s), base);
}

static void test_strtoll(void)
{
	dt_host_strsize = 256;
	CHECK_INT(ll("42", 10), 42);
	CHECK_INT(ll("  -17xyz", 10), -17);
	CHECK_INT(ll("\t 12", 10), 12);
	CHECK_INT(ll("+8", 10), 8);
	CHECK_INT(ll("1 2", 10), 1);
	CHECK_INT(ll("0x1f", 16), 31);
	CHECK_INT(ll("0X1F", 16), 31);
	CHECK_INT(ll("1f", 16), 31);
	CHECK_INT(ll("0x", 16), 0);   /* no hex digit after 0x: 0, then x stops */
	CHECK_INT(ll("0x1f", 10), 0); /* 0x only in base 16 */
	CHECK_INT(ll("z", 36), 35);
	CHECK_INT(ll("Zz", 36), 1295);
	CHECK_INT(ll("777", 8), 511);
	CHECK_INT(ll("789", 8), 7);
	CHECK_INT(ll("101", 2), 5);
	CHECK_INT(ll("", 10), 0);
	CHECK_INT(ll("-", 10), 0);
	CHECK_INT(ll("   ", 10), 0);
	CHECK_INT(ll("9223372036854775807", 10), INT64_MAX);
	CHECK_INT(ll("9223372036854775808", 10), INT64_MIN); /* wraps */
	CHECK_INT(ll("-9223372036854775808", 10), INT64_MIN);
	dt_host_strsize = 8; /* a digit in the last place strsize holds */
	CHECK_INT(ll("      5", 10), 5);
	CHECK_INT(ll("     -5", 10), -5);
	CHECK_INT(ll("      -", 10), 0);
}

/* json(text, element), NULL as "(null)" */
static const char *js(const char *text, const char *elem)
{
	static u64 w[16 + MAXSIZE / 8];

	memset(w, 0x5a, sizeof(w));
	return nul(dt_json(dst, in_arg(0, text), in_arg(1, elem), w));
}

static void test_json(void)
{
	const char *t = "{\"a\":{\"b\":[1,\"two\",{\"c\":true}]}}";

	dt_host_strsize = 256;
	CHECK_STR(js("{\"a\": 1}", "a"), "1");
	CHECK_STR(js(t, "a.b[2].c"), "true");
	CHECK_STR(js(t, "a.b[1]"), "two");
	CHECK_STR(js(t, "a.b[0]"), "1");
	CHECK_STR(js(t, "a.b[3]"), "(null)"); /* past the end */
	CHECK_STR(js(t, "a.b[-1]"), "(null)");
	CHECK_STR(js(t, "a.b"), "[1,\"two\",{\"c\":true}]"); /* arrays and objects whole */
	CHECK_STR(js(t, "a"), "{\"b\":[1,\"two\",{\"c\":true}]}");
	CHECK_STR(js(t, "a.x"), "(null)");
	CHECK_STR(js(t, "b"), "(null)");
	CHECK_STR(js(t, "a.b[2].c.d"), "(null)"); /* a scalar where more names are wanted */
	CHECK_STR(js(t, "a.b[1].x"), "(null)");
	CHECK_STR(js(t, ""), "(null)");
	/* strings: unquoted, escapes kept as written */
	CHECK_STR(js("{\"s\": \"a\\\"b\\\\c\\/d\\u0041\"}", "s"), "a\\\"b\\\\c\\/d\\u0041");
	CHECK_STR(js("{\"s\": \"\\q\"}", "s"), "\\q");
	CHECK_STR(js("{\"s\": \"\\u00zz\"}", "s"), "(null)");
	CHECK_STR(js("{\"s\": \"\\u00e9\"}", "s"), "\\u00e9");
	CHECK_STR(js("{\"s\": \"\"}", "s"), "");
	CHECK_STR(js("{\"a\\\"b\": 1}", "a\\\"b"), "1"); /* keys matched as written */
	CHECK_STR(js("{\"a\\u0041\": 2}", "aA"), "(null)");
	CHECK_STR(js("{\"\": 5}", ""), "5");
	/* whitespace: space, tab, CR, LF only */
	CHECK_STR(js(" \t\r\n{ \"k\" \n: \t \"v\" }", "k"), "v");
	CHECK_STR(js("\f{\"a\":1}", "a"), "(null)");
	CHECK_STR(js("{\"a\" :1 , \"b\"\t:\r2}", "b"), "2");
	/* numbers as illumos reads them */
	CHECK_STR(js("{\"n\": -12.5e+3}", "n"), "-12.5e+3");
	CHECK_STR(js("{\"n\": 1E5, \"m\": 0}", "n"), "1E5");
	CHECK_STR(js("{\"n\": 0x1f}", "n"), "(null)");
	CHECK_STR(js("{\"n\": 1-2}", "n"), "(null)");
	CHECK_STR(js("{\"n\": 1.2.3}", "n"), "1.2"); /* what follows the answer is not read */
	CHECK_STR(js("{\"n\":5,\"m\":6}", "m"), "6");
	CHECK_STR(js("{\"n\": 5", "n"), "(null)"); /* the text ends first */
	CHECK_STR(js("{\"n\": 5}", "n"), "5");
	/* true, false, null */
	CHECK_STR(js("{\"t\": true, \"f\": false, \"z\": null}", "t"), "true");
	CHECK_STR(js("{\"t\": true, \"f\": false, \"z\": null}", "f"), "false");
	CHECK_STR(js("{\"t\": true, \"f\": false, \"z\": null}", "z"), "null");
	CHECK_STR(js("{\"x\": nul}", "x"), "(null)");
	CHECK_STR(js("{\"x\": tru, \"y\": 1}", "y"), "(null)");
	CHECK_STR(js("{\"x\": True}", "x"), "(null)");
	/* a top-level array: the first name is the index, read as strtoll reads */
	CHECK_STR(js("[10, 20, 30]", "[1]"), "20");
	CHECK_STR(js("[10, 20, 30]", "1"), "20");
	CHECK_STR(js("[10, 20, 30]", "[2]"), "30");
	CHECK_STR(js("[10, 20, 30]", ""), "10");
	CHECK_STR(js("[10, 20, 30]", "x"), "10");
	CHECK_STR(js("[10, 20, 30]", "[ +1]"), "20");
	CHECK_STR(js("[10, 20, 30]", "[1x]"), "20");
	CHECK_STR(js("[10, 20, 30]", "[3]"), "(null)");
	CHECK_STR(js("[10, 20, 30]", "[-1]"), "(null)");
	CHECK_STR(js("[[1,2],[3,4]]", "[1][0]"), "3");
	CHECK_STR(js("[[1,2],[3,4]]", "[1]"), "[3,4]");
	CHECK_STR(js("[]", "[0]"), "(null)");
	CHECK_STR(js("{\"l\": [{\"id\": 1}, {\"id\": 2}]}", "l[1].id"), "2");
	CHECK_STR(js("{\"\": {\"a\": 3}}", ".a"), "3");
	CHECK_STR(js("{\"a\": 1}", "[a]"), "1");
	/* objects and arrays skipped or collected: braces in strings do not count */
	CHECK_STR(js("{\"o\": {\"s\": \"}{][\"}, \"p\": 2}", "o"), "{\"s\": \"}{][\"}");
	CHECK_STR(js("{\"o\": {\"s\": \"}{][\\\"\"}, \"p\": 2}", "p"), "2");
	CHECK_STR(js("{\"x\": {\"a\": 1}, \"a\": 2}", "a"), "2");
	CHECK_STR(js("{\"a\": [1}], \"b\": 2}", "b"), "(null)"); /* unbalanced */
	CHECK_STR(js("{\"a\":1,\"a\":2}", "a"), "1");
	/* malformed */
	CHECK_STR(js("{\"a\": 1, ]", "a"), "1"); /* after the answer: not read */
	CHECK_STR(js("{\"a\": 1, ]", "b"), "(null)");
	CHECK_STR(js("{\"a\" 1}", "a"), "(null)");
	CHECK_STR(js("{a: 1}", "a"), "(null)");
	CHECK_STR(js("\"str\"", "str"), "(null)");
	CHECK_STR(js("5", ""), "(null)");
	CHECK_STR(js("", ""), "(null)");
	CHECK_STR(js("{}", "a"), "(null)");
	CHECK_STR(js("{\"a\": }", "a"), "(null)");
	/* a key holding '.' or '[' cannot be asked for: the element is cut there */
	CHECK_STR(js("{\"a.b\": 1, \"a\": {\"b\": 2}}", "a.b"), "2");
	CHECK_STR(js("{\"a.b\": 1}", "a.b"), "(null)");
	CHECK_STR(js("{\"a]\": 1, \"a\": 3}", "a]"), "3"); /* ']' dropped */
	/* no nesting limit but strsize: 100 arrays deep, skipped and collected */
	{
		char deep[256], want[256];

		memset(deep, 0, sizeof(deep));
		strcpy(deep, "{\"d\":");
		memset(deep + 5, '[', 100);
		memset(deep + 105, ']', 100);
		strcpy(deep + 205, ",\"e\":7}");
		memcpy(want, deep + 5, 200);
		want[200] = '\0';
		CHECK_STR(js(deep, "e"), "7");
		CHECK_STR(js(deep, "d"), want);
		want[197] = '\0'; /* 97 deep */
		CHECK_STR(js(deep, "d[0][0][0]"), want + 3);
		CHECK_STR(js(deep, "d[0][1]"), "(null)");
	}
	/* at strsize 16: a text of 15 bytes, and one cut there */
	dt_host_strsize = 16;
	CHECK_STR(js("{\"a\":\"0123456\"}", "a"), "0123456");
	CHECK_STR(js("{\"a\":\"01234567\"}", "a"), "01234567"); /* 16: the '}' cut */
	CHECK_STR(js("{\"a\":\"012345678\"}", "a"), "(null)");
	CHECK_STR(js("{\"abcdefghijkl\":", "abcdefghijklmno"), "(null)");
	CHECK_STR(js("[0,1,2,3,4,5,6]", "[6]"), "6");
	CHECK_STR(js("[0,1,2,3,4,5,67]", "[6]"), "(null)"); /* 6, then the NUL where 7 was */
	CHECK_STR(js("[0,1,2,3,4,5,6]", "[5]"), "5");
	dt_host_strsize = 8;
	CHECK_STR(js("{\"a\":1}", "a"), "1");
}

int main(void)
{
	test_json();
	test_strtoll();
	test_inet();
	test_substr();
	test_search();
	test_case_and_numbers();
	test_paths();
	test_strtok();
	return CHECK_DONE();
}
