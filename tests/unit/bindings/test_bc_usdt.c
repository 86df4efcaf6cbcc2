/*
 * Unit tests of the bindings' shared provider core (bindings/common/
 * bc_usdt.c), without a tracer: the argument type table, the integer
 * ranges at each width, the messages the three bindings show, the
 * watcher's interval, and the runtime provider's lifecycle and errors.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "bc_usdt.h"

static char rundir[] = "/tmp/bc-unit-XXXXXX";

static void test_types(void)
{
	static const struct {
		const char *name;
		usdt_argtype_t type;
		bc_kind_t kind;
		int bits;
	} want[] = {
		{ "int", USDT_ARG_INT64, BC_INT, 64 },
		{ "int8", USDT_ARG_INT8, BC_INT, 8 },
		{ "uint8", USDT_ARG_UINT8, BC_UINT, 8 },
		{ "int16", USDT_ARG_INT16, BC_INT, 16 },
		{ "uint16", USDT_ARG_UINT16, BC_UINT, 16 },
		{ "int32", USDT_ARG_INT32, BC_INT, 32 },
		{ "uint32", USDT_ARG_UINT32, BC_UINT, 32 },
		{ "int64", USDT_ARG_INT64, BC_INT, 64 },
		{ "uint64", USDT_ARG_UINT64, BC_UINT, 64 },
		{ "pointer", USDT_ARG_POINTER, BC_PTR, 64 },
		{ "string", USDT_ARG_STRING, BC_STR, 0 },
		{ "str", USDT_ARG_STRING, BC_STR, 0 },
		{ "char *", USDT_ARG_STRING, BC_STR, 0 },
		{ "float", USDT_ARG_DOUBLE, BC_FLOAT, 0 },
		{ "double", USDT_ARG_DOUBLE, BC_FLOAT, 0 },
		{ "json", USDT_ARG_STRING, BC_JSON, 0 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const bc_argtype_t *t = bc_argtype(want[i].name);

		CHECK(t != NULL);
		if (t == NULL)
			continue;
		CHECK_STR(t->name, want[i].name);
		CHECK_INT(t->type, want[i].type);
		CHECK_INT(t->kind, want[i].kind);
		CHECK_INT(t->bits, want[i].bits);
	}
	CHECK(bc_argtype(NULL) == NULL);
	CHECK(bc_argtype("") == NULL);
	CHECK(bc_argtype("float32") == NULL);
	CHECK(bc_argtype("Int") == NULL); /* names are exact */
	CHECK(bc_argtype("int ") == NULL);
	CHECK(bc_argtype("char*") == NULL);
}

static void test_ranges(void)
{
	const bc_argtype_t *i8 = bc_argtype("int8"), *u8 = bc_argtype("uint8");
	const bc_argtype_t *i32 = bc_argtype("int32"), *u16 = bc_argtype("uint16");
	const bc_argtype_t *i64 = bc_argtype("int64"), *u64 = bc_argtype("uint64");
	const bc_argtype_t *ptr = bc_argtype("pointer"), *str = bc_argtype("string");
	usdt_arg_t v = { .u = 0xdeadbeef };

	/* a Number: an integer in the range */
	CHECK_INT(bc_int_from_double(i8, -128, &v), 0);
	CHECK_INT(v.i, -128);
	CHECK_INT(bc_int_from_double(i8, 127, &v), 0);
	CHECK_INT(v.i, 127);
	v.u = 7;
	CHECK_INT(bc_int_from_double(i8, 128, &v), -1);
	CHECK_INT(v.u, 7); /* nothing set on failure */
	CHECK_INT(bc_int_from_double(i8, -129, &v), -1);
	CHECK_INT(bc_int_from_double(u8, 255, &v), 0);
	CHECK_INT(v.u, 255);
	CHECK_INT(bc_int_from_double(u8, 256, &v), -1);
	CHECK_INT(bc_int_from_double(u8, -1, &v), -1);
	CHECK_INT(bc_int_from_double(u16, 65535, &v), 0);
	CHECK_INT(bc_int_from_double(u16, 65536, &v), -1);
	CHECK_INT(bc_int_from_double(i32, 1.5, &v), -1);
	CHECK_INT(bc_int_from_double(i32, NAN, &v), -1);
	CHECK_INT(bc_int_from_double(i32, INFINITY, &v), -1);
	CHECK_INT(bc_int_from_double(i32, -2147483648.0, &v), 0);
	CHECK_INT(bc_int_from_double(i32, 2147483648.0, &v), -1);
	CHECK_INT(bc_int_from_double(i64, -9223372036854775808.0, &v), 0);
	CHECK_INT(v.i, INT64_MIN);
	CHECK_INT(bc_int_from_double(i64, 9223372036854775808.0, &v), -1);
	CHECK_INT(bc_int_from_double(u64, 18446744073709549568.0, &v), 0); /* 2^64 - 2048 */
	CHECK(v.u == 18446744073709549568ULL);
	CHECK_INT(bc_int_from_double(u64, 18446744073709551616.0, &v), -1); /* 2^64 */
	CHECK_INT(bc_int_from_double(ptr, 4096, &v), 0);
	CHECK_INT(v.u, 4096);
	CHECK_INT(bc_int_from_double(ptr, -1, &v), -1);
	CHECK_INT(bc_int_from_double(str, 1, &v), -1); /* not an integer type */
	CHECK_INT(bc_int_from_double(NULL, 1, &v), -1);

	/* 64-bit integers of either sign (a BigInt) */
	CHECK_INT(bc_int_from_i64(i8, -128, &v), 0);
	CHECK_INT(bc_int_from_i64(i8, -129, &v), -1);
	CHECK_INT(bc_int_from_i64(i8, 128, &v), -1);
	CHECK_INT(bc_int_from_i64(u8, -1, &v), -1);
	CHECK_INT(bc_int_from_i64(u8, 200, &v), 0);
	CHECK_INT(v.u, 200);
	CHECK_INT(bc_int_from_i64(i64, INT64_MIN, &v), 0);
	CHECK_INT(bc_int_from_i64(i64, INT64_MAX, &v), 0);
	CHECK_INT(bc_int_from_u64(u64, UINT64_MAX, &v), 0);
	CHECK(v.u == UINT64_MAX);
	CHECK_INT(bc_int_from_u64(u8, 256, &v), -1);
	CHECK_INT(bc_int_from_u64(i64, (uint64_t)INT64_MAX + 1, &v), -1);
	CHECK_INT(bc_int_from_u64(i8, 127, &v), 0);
	CHECK_INT(v.i, 127);
	CHECK_INT(bc_int_from_u64(ptr, UINT64_MAX, &v), 0);
	CHECK_INT(bc_int_from_i64(str, 0, &v), -1);
	CHECK_INT(bc_int_from_u64(NULL, 0, &v), -1);
}

static void test_messages(void)
{
	char buf[512], small[12];

	CHECK_STR(bc_msg_label(buf, sizeof(buf), "myapp", "query-start"), "myapp:::query-start");
	CHECK_STR(bc_msg_badtype(buf, sizeof(buf), "x", 2, "'float32'"),
		  "probe x: argument type 2: 'float32' is not one of int, string, float, json, "
		  "int8..uint64, pointer, double");
	CHECK_STR(bc_msg_toomany(buf, sizeof(buf), "x"),
		  "probe x: a probe takes at most 12 arguments");
	CHECK_STR(bc_msg_count(buf, sizeof(buf), "p:::q", 1, 3),
		  "p:::q takes 1 argument (3 given)");
	CHECK_STR(bc_msg_count(buf, sizeof(buf), "p:::q", 6, 5),
		  "p:::q takes 6 arguments (5 given)");
	CHECK_STR(bc_msg_range(buf, sizeof(buf), "p:::q", 1, bc_argtype("int8")),
		  "argument 1 of p:::q: not an integer in the range of int8");
	CHECK_STR(bc_msg_range(buf, sizeof(buf), "p:::q", 3, bc_argtype("pointer")),
		  "argument 3 of p:::q: not an integer in the range of uint64");
	CHECK_STR(bc_msg_usdt(buf, sizeof(buf), "enable", NULL, -EUSDT_NOTENABLED),
		  "enable: the provider is not enabled");
	CHECK_STR(bc_msg_usdt(buf, sizeof(buf), "start()", NULL, EUSDT_NOTENABLED),
		  "start(): the provider is not enabled");
	/* truncated, always terminated */
	CHECK_STR(bc_msg_label(small, sizeof(small), "provider", "probe"), "provider:::");
	CHECK_STR(bc_msg_label(buf, sizeof(buf), NULL, NULL), "?:::?");

	CHECK_STR(bc_usdt_codename(EUSDT_BADNAME), "EUSDT_BADNAME");
	CHECK_STR(bc_usdt_codename(-EUSDT_BADNAME), "EUSDT_BADNAME");
	CHECK_STR(bc_usdt_codename(EUSDT_HIGHADDR), "EUSDT_HIGHADDR");
	CHECK_STR(bc_usdt_codename(-EINVAL), "EINVAL");
	CHECK_STR(bc_usdt_codename(ENOMEM), "ENOMEM");
	CHECK_STR(bc_usdt_codename(EUSDT_MAX), "EUSDT");
	CHECK_STR(bc_usdt_codename(0), "EUSDT");
}

static void test_interval(void)
{
	long ns = -1;

	CHECK_INT(bc_interval_ns(0.05, 1e9, &ns), 0);
	CHECK_INT(ns, 50000000);
	CHECK_INT(bc_interval_ns(0.001, 1e9, &ns), 0);
	CHECK_INT(ns, BC_INTERVAL_MIN_NS);
	CHECK_INT(bc_interval_ns(60, 1e9, &ns), 0);
	CHECK_INT(ns, BC_INTERVAL_MAX_NS);
	CHECK_INT(bc_interval_ns(1, 1e6, &ns), 0); /* Node's milliseconds */
	CHECK_INT(ns, 1000000);
	ns = 5;
	CHECK_INT(bc_interval_ns(0.0009, 1e9, &ns), -1);
	CHECK_INT(ns, 5);
	CHECK_INT(bc_interval_ns(60.001, 1e9, &ns), -1);
	CHECK_INT(bc_interval_ns(60001, 1e6, &ns), -1);
	CHECK_INT(bc_interval_ns(0, 1e6, &ns), -1);
	CHECK_INT(bc_interval_ns(-1, 1e6, &ns), -1);
	CHECK_INT(bc_interval_ns(NAN, 1e6, &ns), -1);
	CHECK_INT(bc_interval_ns(INFINITY, 1e6, &ns), -1);
}

static int looks;

static void count_look(bool on, void *arg)
{
	(void)on;
	(void)arg;
	__atomic_add_fetch(&looks, 1, __ATOMIC_RELAXED);
}

static void test_runtime(void)
{
	bc_rt_t rt, bad;
	char err[160] = "", path[4096] = "";

	memset(&rt, 0, sizeof(rt));
	memset(&bad, 0, sizeof(bad));
	CHECK_INT(bc_rt_index("function-entry"), BC_RT_ENTRY);
	CHECK_INT(bc_rt_index("function-return"), BC_RT_RETURN);
	CHECK_INT(bc_rt_index("function__entry"), -1);
	CHECK_INT(bc_rt_index(NULL), -1);
	CHECK_STR(bc_rt_names[BC_RT_RETURN], "function-return");

	/* a bad provider name: the code negated, the message, nothing left */
	CHECK_INT(bc_rt_open(&bad, "bad-name", NULL, err, sizeof(err)), -EUSDT_BADNAME);
	CHECK_STR(err, usdt_strerror(EUSDT_BADNAME));
	CHECK(bad.prov == NULL && bad.probes[0] == NULL && bad.probes[1] == NULL);
	CHECK_INT(bc_rt_watch(&bad, 50000000, count_look, NULL, err, sizeof(err)), -EINVAL);
	CHECK(bad.watch == NULL);

	CHECK_INT(bc_rt_open(&rt, "unit_rt", "unitmod", err, sizeof(err)), 0);
	CHECK(rt.prov != NULL && rt.probes[BC_RT_ENTRY] != NULL && rt.probes[BC_RT_RETURN] != NULL);
	snprintf(path, sizeof(path), "%s", rt.prov ? usdt_provider_path(rt.prov) : "");
	CHECK(strstr(path, "unit_rt") != NULL && access(path, R_OK) == 0);
	/* open twice: refused, the first provider kept */
	CHECK_INT(bc_rt_open(&rt, "unit_rt", NULL, err, sizeof(err)), -EUSDT_ENABLED);
	CHECK(rt.prov != NULL);
	/* the interval is checked before a thread starts */
	CHECK_INT(bc_rt_watch(&rt, 999999, count_look, NULL, err, sizeof(err)), -EINVAL);
	CHECK(strncmp(err, "cannot start the watcher thread: ", 33) == 0);
	CHECK_INT(bc_rt_watch(&rt, 1000000, NULL, NULL, err, sizeof(err)), -EINVAL);
	CHECK(rt.watch == NULL);
	CHECK_INT(bc_rt_watch(&rt, 1000000, count_look, NULL, err, sizeof(err)), 0);
	CHECK(rt.watch != NULL);
	usleep(30000);
	/* untraced: the watcher never calls back, nothing is enabled */
	CHECK(!bc_rt_traced(&rt));
	CHECK_INT(bc_enabled_mask(rt.probes, BC_RT_NPROBES), 0);
	bc_rt_unwatch(&rt);
	CHECK(rt.watch == NULL);
	CHECK_INT(__atomic_load_n(&looks, __ATOMIC_RELAXED), 0);
	bc_rt_unwatch(&rt); /* twice: nothing */
	bc_rt_close(&rt);
	CHECK(rt.prov == NULL);
	CHECK(access(path, F_OK) != 0); /* the image went with the provider */
	/* its probe handles stay safe: a fire after close does nothing */
	usdt_probe_fire3(rt.probes[BC_RT_ENTRY], (uint64_t)(uintptr_t) "f",
			 (uint64_t)(uintptr_t) "file", 1);
	CHECK(!bc_rt_traced(&rt));
	bc_rt_close(&rt);
	bc_rt_close(NULL);
	bc_rt_unwatch(NULL);
	CHECK(!bc_rt_traced(NULL));
	CHECK_INT(bc_enabled_mask(NULL, 2), 0);
	/* open again after close */
	memset(rt.probes, 0, sizeof(rt.probes));
	CHECK_INT(bc_rt_open(&rt, "unit_rt", NULL, err, sizeof(err)), 0);
	bc_rt_close(&rt);
}

int main(void)
{
	if (mkdtemp(rundir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	setenv("USDT_RUNTIME_DIR", rundir, 1);
	test_types();
	test_ranges();
	test_messages();
	test_interval();
	test_runtime();
	rmdir(rundir);
	return CHECK_DONE();
}
