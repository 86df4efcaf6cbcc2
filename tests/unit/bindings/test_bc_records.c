/*
 * bindings/common/bc_records.c: real D programs run through dtrace_consume()
 * into a sink, and the queue read back; every entry is written as a line
 * (its kind and fields, each value with its kind, action, type and value)
 * and compared with what the program must give.  Also: the aggregation
 * snapshot, a fault, a partly read queue (bc_sink_discard), and readers of
 * malformed queues (cut short, a bad tag) that fail without a crash.
 * Needs root for BPF (exit 77 without).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "bc_records.h"

typedef struct {
	char **lines;
	size_t n;
} log_t;

static void add(log_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(log_t *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vaddline(&l->lines, &l->n, fmt, ap);
	va_end(ap);
}

static void log_free(log_t *l)
{
	check_freelines(l->lines, l->n);
	*l = (log_t){ 0 };
}

static void check_log(const log_t *l, const char *const *want)
{
	size_t n = 0;

	while (want[n] != NULL)
		n++;
	CHECK_INT(l->n, n);
	for (size_t i = 0; i < l->n && i < n; i++)
		CHECK_STR(l->lines[i], want[i]);
	if (l->n != n)
		for (size_t i = 0; i < l->n; i++)
			fprintf(stderr, "  got: %s\n", l->lines[i]);
}

static const char *const kinds[] = { "INT",   "FLOAT",	"STRING", "BYTES", "SYM",
				     "STACK", "PRINTF", "PRINTA", "EXIT",  "OTHER" };

/* A value as text into buf (of size n); its sub-items (args, frames, names) too. */
static void value_text(const bc_value_t *v, char *buf, size_t n)
{
	size_t at =
	    (size_t)snprintf(buf, n, "%s %s [%s]", (unsigned)v->kind < 10 ? kinds[v->kind] : "?",
			     v->action, v->type);
	bc_reader_t sub = v->sub;

#define OUT(...)                                                               \
	do {                                                                   \
		if (at < n)                                                    \
			at += (size_t)snprintf(buf + at, n - at, __VA_ARGS__); \
	} while (0)
	switch (v->kind) {
	case DTRACE_REC_INT:
		OUT(" w%u s%d %" PRId64 " %" PRIu64, v->width, v->is_signed, v->i, v->u);
		break;
	case DTRACE_REC_FLOAT: OUT(" w%u %g", v->width, v->f); break;
	case DTRACE_REC_STRING: OUT(" %zu \"%s\"", v->len, v->str); break;
	case DTRACE_REC_PRINTF: {
		bc_value_t a;
		char ab[256];

		OUT(" \"%.*s\"", (int)(v->len && v->str[v->len - 1] == '\n' ? v->len - 1 : v->len),
		    v->str);
		OUT(" %u", v->n);
		while (bc_read_value(&sub, &a) == 1) {
			value_text(&a, ab, sizeof(ab));
			OUT(" (%s)", ab);
		}
		break;
	}
	case DTRACE_REC_BYTES:
		OUT(" %zu", v->len);
		if (bc_is_print(v))
			OUT(" print@%s", v->addr != 0 ? "addr" : "0");
		for (size_t i = 0; i < v->len; i++)
			OUT(" %02x", (unsigned char)v->str[i]);
		break;
	case DTRACE_REC_SYM:
		OUT(" pid%s %s %s %s", v->pid != 0 ? "N" : "0", v->module ? v->module : "-",
		    v->symbol ? v->symbol : "-", v->str);
		break;
	case DTRACE_REC_STACK: {
		bc_frame_t f;
		unsigned got = 0;

		OUT(" pid%s %u", v->pid != 0 ? "N" : "0", v->n);
		while (bc_read_frame(&sub, &f) == 1) {
			if (got++ == 0 && v->pid != 0) /* the kernel's: BPF's names vary */
				OUT(" top=%s", f.symbol ? f.symbol : "-");
			CHECK(f.pc != 0);
		}
		CHECK_INT(got, v->n);
		break;
	}
	case DTRACE_REC_PRINTA:
	case DTRACE_REC_OTHER: {
		const char *name;

		if (v->kind == DTRACE_REC_OTHER)
			OUT(" %" PRId64, v->i);
		OUT(" \"%s\"", v->str ? v->str : "(none)");
		while (bc_read_name(&sub, &name) == 1)
			OUT(" @%s", name);
		break;
	}
	case DTRACE_REC_EXIT: OUT(" %" PRId64, v->i); break;
	}
#undef OUT
}

/* Every entry of r as lines. */
static void read_all(bc_reader_t *r, log_t *l)
{
	bc_entry_t e;
	int rc;

	while ((rc = bc_read_entry(r, &e)) == 1) {
		bc_value_t v;
		dtrace_aggbucket_t b;
		char buf[1024], vb[512];
		size_t at = 0;

		switch (e.kind) {
		case BC_PROBE:
			add(l, "probe %s:%s:%s:%s cpu%s epid%u recs %u data %u", e.provider,
			    e.module, e.function, e.name, e.cpu >= 0 ? "ok" : "-", e.epid, e.nrecs,
			    e.ndata);
			while (bc_read_value(&e.recs, &v) == 1) {
				value_text(&v, vb, sizeof(vb));
				add(l, "  %s", vb);
			}
			CHECK(!e.recs.bad);
			break;
		case BC_AGG:
			at = (size_t)snprintf(buf, sizeof(buf), "agg @%s %s%s [", e.aggname,
					      e.function_name, e.printa ? " printa" : "");
			while (bc_read_value(&e.keys, &v) == 1) {
				value_text(&v, vb, sizeof(vb));
				at += (size_t)snprintf(buf + at, sizeof(buf) - at, "(%s)", vb);
			}
			at += (size_t)snprintf(buf + at, sizeof(buf) - at, "] %" PRId64, e.value);
			while (bc_read_bucket(&e.buckets, &b) == 1)
				at += (size_t)snprintf(buf + at, sizeof(buf) - at,
						       " %" PRId64 "..%" PRId64 ":%" PRId64,
						       b.dtab_lo, b.dtab_hi, b.dtab_count);
			add(l, "%s", buf);
			break;
		case BC_ERROR:
			add(l, "error %s:%s:%s:%s epid%u action %d %s %s0x%" PRIx64 " \"%s\"",
			    e.provider, e.module, e.function, e.name, e.epid, e.action, e.fault,
			    e.has_addr ? "at " : "no ", e.has_addr ? e.addr : 0, e.msg);
			break;
		case BC_DROP:
			add(l, "drop %s %" PRIu64 " \"%s\"", e.dropkind, e.count, e.msg);
			break;
		}
	}
	CHECK_INT(rc, 0);
}

static dtrace_hdl_t *start(const char *prog, bc_sink_t *s)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	dtrace_prog_t *pgp;

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return NULL;
	bc_sink_init(s, dtp, BC_SINK_PRINTA);
	CHECK_INT(bc_sink_handlers(s), 0);
	CHECK_INT(dtrace_setopt(dtp, "quiet", NULL), 0);
	pgp = dtrace_program_strcompile(dtp, prog, "test", 0, 0, NULL);
	if (pgp == NULL || dtrace_program_exec(dtp, pgp, NULL) != 0 || dtrace_go(dtp) != 0) {
		fprintf(stderr, "%s\n  %s\n", prog, dtrace_errmsg(dtp, dtrace_errno(dtp)));
		CHECK(!"the program runs");
		dtrace_close(dtp);
		return NULL;
	}
	return dtp;
}

static dtrace_workstatus_t consume_all(bc_sink_t *s)
{
	dtrace_workstatus_t st = DTRACE_WORKSTATUS_OKAY;

	for (int i = 0; i < 500 && st == DTRACE_WORKSTATUS_OKAY; i++) {
		dtrace_sleep(s->dtp);
		st = bc_consume(s);
	}
	return st;
}

static void test_every_kind(void)
{
	static const char *const want[] = {
		"probe dtrace:::BEGIN cpuok epid1 recs 14 data 11",
		"  INT trace [char] w1 s1 -1 255",
		"  INT trace [uint64_t] w8 s0 -1 18446744073709551615",
		"  INT trace [int] w4 s1 -3 4294967293",
		"  STRING trace [string] 5 \"hello\"",
		"  PRINTF printf [] \"<42|x>\" 2 (INT arg [int] w4 s1 42 42) (STRING arg [string] 1 "
		"\"x\")",
		"  BYTES tracemem [] 4 61 62 63 00",
		"  BYTES print [struct s] 12 print@addr 07 00 00 00 7a 00 00 00 ff ff ff ff",
		"  SYM trace [_symaddr_t] pid0 - - 0x0",
		"  STACK stack [stack] pid0 2",
		"  BYTES trace [struct s] 12 07 00 00 00 7a 00 00 00 ff ff ff ff",
		"  PRINTA printa [] \"(none)\" @c",
		"  INT trace [int] w4 s1 7 7",
		"  OTHER setopt [] 0 \"quiet\"",
		"  EXIT exit [int] 3",
		"agg @c count printa [(STRING key [string] 1 \"a\")(INT key [int] w4 s1 1 1)] 2",
		"agg @c count printa [(STRING key [string] 1 \"b\")(INT key [int] w4 s1 -2 "
		"4294967294)] 3",
		NULL,
	};
	static const char *const want_aggs[] = {
		"agg @c count [(STRING key [string] 1 \"a\")(INT key [int] w4 s1 1 1)] 2",
		"agg @c count [(STRING key [string] 1 \"b\")(INT key [int] w4 s1 -2 4294967294)] 3",
		"agg @s sum [] -5",
		"agg @q quantize [] 0 0..0:1 2..3:1 512..1023:1",
		"agg @l lquantize [] 0 -9223372036854775808..-1:1 20..9223372036854775807:1",
		NULL,
	};
	log_t l = { 0 }, la = { 0 };
	bc_sink_t s;
	bc_reader_t r;
	dtrace_hdl_t *dtp = start(
	    "struct s { int a; int b; int c; }; char buf[4];\n"
	    "BEGIN {\n"
	    " @c[\"a\", 1] = count(); @c[\"a\", 1] = count();\n"
	    " @c[\"b\", -2] = count(); @c[\"b\", -2] = count(); @c[\"b\", -2] = count();\n"
	    " @s = sum(-5); @q = quantize(3); @q = quantize(0); @q = quantize(1000);\n"
	    " @l = lquantize(25, 0, 20, 10); @l = lquantize(-1, 0, 20, 10);\n"
	    " trace((char)-1); trace((uint64_t)-1); trace(-3); trace(\"hello\");\n"
	    " printf(\"<%d|%s>\\n\", 42, \"x\");\n"
	    " buf[0] = 'a'; buf[1] = 'b'; buf[2] = 'c'; tracemem(buf, 4);\n"
	    " this->p = (struct s *)alloca(sizeof(struct s)); this->p->a = 7; this->p->b = 'z'; this->p->c = -1;\n"
	    " print(this->p); mod(0); stack(2); trace(*this->p);\n"
	    " printa(@c); trace(7); setopt(\"quiet\"); exit(3);\n"
	    "}\n",
	    &s);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(&s), DTRACE_WORKSTATUS_DONE);
	CHECK(!bc_sink_failed(&s));
	CHECK_INT(s.walkerr, 0);
	r = bc_sink_reader(&s);
	read_all(&r, &l);
	check_log(&l, want);

	/* the snapshot: every aggregation, in dtrace(1)'s order */
	bc_sink_reset(&s);
	CHECK_INT(bc_aggregate(&s, NULL), 0);
	r = bc_sink_reader(&s);
	read_all(&r, &la);
	check_log(&la, want_aggs);

	/* one of them by name; an unknown name is the walk's error, nothing queued */
	bc_sink_reset(&s);
	CHECK_INT(bc_aggregate(&s, "s"), 0);
	CHECK_INT(s.q.whole > 0, 1);
	bc_sink_reset(&s);
	CHECK_INT(bc_aggregate(&s, "nosuch"), -1);
	CHECK_INT(s.q.whole, 0);

	bc_sink_fini(&s);
	log_free(&l);
	log_free(&la);
	dtrace_close(dtp);
}

/* Faults come as entries in their order, with the firings around them. */
static void test_faults(void)
{
	static const char *const want[] = {
		"error dtrace:::BEGIN epid1 action 0 invalid address at 0x10 \"error on enabled "
		"probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x10) in predicate at DIF offset 0\"",
		"probe dtrace:::BEGIN cpuok epid2 recs 1 data 1",
		"  INT trace [int] w4 s1 2 2",
		"error dtrace:::BEGIN epid3 action 3 divide-by-zero no 0x0 \"error on enabled probe "
		"ID 3 (ID 1: dtrace:::BEGIN): divide-by-zero in action #3 at DIF offset 0\"",
		"probe dtrace:::BEGIN cpuok epid4 recs 1 data 0",
		"  EXIT exit [int] 0",
		NULL,
	};
	log_t l = { 0 };
	bc_sink_t s;
	bc_reader_t r;
	dtrace_hdl_t *dtp = start("BEGIN / *(int *)16 == 0 / { trace(1); }\n"
				  "BEGIN { trace(2); }\n"
				  "BEGIN { this->z = 0; trace(3); trace(1 / this->z); }\n"
				  "BEGIN { exit(0); }",
				  &s);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(&s), DTRACE_WORKSTATUS_DONE);
	r = bc_sink_reader(&s);
	read_all(&r, &l);
	/* the offset of the fault in the code is the compiler's: not compared */
	for (size_t i = 0; i < l.n; i++)
		if (strstr(l.lines[i], " at DIF offset ") != NULL)
			strcpy(strstr(l.lines[i], " at DIF offset ") + 15, "0\"");
	check_log(&l, want);
	bc_sink_fini(&s);
	log_free(&l);
	dtrace_close(dtp);
}

/* A reader part-way: bc_sink_discard keeps the rest; broken queues are errors. */
static void test_reader(void)
{
	bc_sink_t s;
	bc_reader_t r, cut;
	bc_entry_t e;
	bc_value_t v;
	int n = 0;
	dtrace_hdl_t *dtp = start("BEGIN { trace(1); } BEGIN { trace(2); } BEGIN { trace(3); }"
				  " BEGIN { exit(0); }",
				  &s);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(&s), DTRACE_WORKSTATUS_DONE);
	r = bc_sink_reader(&s);
	CHECK_INT(bc_read_entry(&r, &e), 1);
	CHECK_INT(bc_read_value(&e.recs, &v), 1);
	CHECK_INT(v.i, 1);
	CHECK_INT(bc_read_value(&e.recs, &v), 0);
	bc_sink_discard(&s, &r);
	r = bc_sink_reader(&s);
	CHECK_INT(bc_read_entry(&r, &e), 1);
	CHECK_INT(bc_read_value(&e.recs, &v), 1);
	CHECK_INT(v.i, 2);

	/* every cut of the queue reads as far as it goes, then -1 (or 0 at an entry's end) */
	r = bc_sink_reader(&s);
	for (const char *end = r.p; end < r.end; end++) {
		cut = (bc_reader_t){ r.p, end, false };
		while ((n = bc_read_entry(&cut, &e)) == 1)
			while (bc_read_value(&e.recs, &v) == 1)
				;
		CHECK(n == -1 || (n == 0 && !cut.bad));
	}
	/* a bad tag */
	if (s.q.whole > 0) {
		char save = s.q.buf[0];

		s.q.buf[0] = 'Z';
		r = bc_sink_reader(&s);
		CHECK_INT(bc_read_entry(&r, &e), -1);
		CHECK_INT(bc_read_entry(&r, &e), -1); /* and it stays so */
		s.q.buf[0] = save;
	}
	bc_sink_reset(&s);
	r = bc_sink_reader(&s);
	CHECK_INT(bc_read_entry(&r, &e), 0);
	bc_sink_fini(&s);
	bc_sink_fini(&s); /* twice is harmless */
	r = bc_sink_reader(&s);
	CHECK_INT(bc_read_entry(&r, &e), 0);
	dtrace_close(dtp);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("skipped: needs root\n");
		return 77;
	}
	test_every_kind();
	test_faults();
	test_reader();
	return CHECK_DONE();
}
