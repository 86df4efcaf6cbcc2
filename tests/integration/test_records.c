/*
 * The records API (dtrace_consume, dtrace_aggregate_walk) on real D
 * programs: every record a callback receives is written as a line of text
 * here (its kind, action, type, width, sign and value) and the lines are
 * compared with what the D program must give; the aggregation walk is
 * compared with the text dtrace_aggregate_write prints of the same
 * snapshot (order, keys, values, the quantizations' buckets), under the
 * default sort and aggsortrev.  API misuse gets EDT_BADARG, a callback's
 * ABORT and ERROR their codes.  Needs root (exit 77 without).
 *
 *   test_records          the tests
 *   test_records child    the target of the ustack() test: calls rec_leaf()
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"
#include "dtrace.h"

/* ---------------------------------------------------------------- the target */

__attribute__((noinline)) int rec_leaf(int x);
__attribute__((noinline)) int rec_mid(int x);

__attribute__((noinline)) int rec_leaf(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + (int)getppid() % 2;
}

__attribute__((noinline)) int rec_mid(int x)
{
	return rec_leaf(x) + 1; /* not a tail call: rec_mid stays on the stack */
}

static int child(void)
{
	int s = 0;

	for (int i = 0; i < 100; i++) {
		s += rec_mid(i);
		usleep(20000);
	}
	return s == 1;
}

/* ---------------------------------------------------------------- a log of the callbacks */

typedef struct log {
	char **lines;
	size_t n;
	int probe_rc, rec_rc; /* what the callbacks return */
	int rec_rc_after;     /* rec_rc from the rec_rc_after-th record on (0: always) */
	size_t nrecs;	      /* records seen (not the ends) */
	char stack[4096];     /* the first stack: its frames joined by " < " */
	int stack_pid;
	unsigned stack_n, stack_flags;
	char parts[4096]; /* its frames as module`symbol+offset from the parts */
	char sym[512];	  /* the last SYM record: module|symbol|offset|address */
} log_t;

static void addline(log_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void addline(log_t *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vaddline(&l->lines, &l->n, fmt, ap);
	va_end(ap);
}

static void log_free(log_t *l)
{
	check_freelines(l->lines, l->n);
	memset(l, 0, sizeof(*l));
}

/* One record as a line: every field that means something for its kind. */
static void rec_text(char *buf, size_t len, const dtrace_record_t *r)
{
	switch (r->dtr_kind) {
	case DTRACE_REC_INT:
		snprintf(buf, len, "%s INT %s w%u s%d %" PRId64 " %" PRIu64, r->dtr_action,
			 r->dtr_type, r->dtr_width, r->dtr_signed, r->dtr_int, r->dtr_uint);
		break;
	case DTRACE_REC_FLOAT:
		snprintf(buf, len, "%s FLOAT %s w%u %g", r->dtr_action, r->dtr_type, r->dtr_width,
			 r->dtr_float);
		break;
	case DTRACE_REC_STRING:
		snprintf(buf, len, "%s STRING %s %zu \"%s\"", r->dtr_action, r->dtr_type,
			 r->dtr_len, r->dtr_str);
		break;
	case DTRACE_REC_BYTES: {
		size_t o = (size_t)snprintf(buf, len, "%s BYTES %s %zu", r->dtr_action, r->dtr_type,
					    r->dtr_len);

		for (size_t i = 0; i < r->dtr_len && o + 4 < len; i++)
			o += (size_t)snprintf(buf + o, len - o, " %02x",
					      ((const unsigned char *)r->dtr_bytes)[i]);
		break;
	}
	case DTRACE_REC_SYM: snprintf(buf, len, "%s SYM %s", r->dtr_action, r->dtr_str); break;
	case DTRACE_REC_STACK: snprintf(buf, len, "%s STACK %s", r->dtr_action, r->dtr_type); break;
	case DTRACE_REC_PRINTF: {
		size_t o = (size_t)snprintf(buf, len, "printf \"%s\" %zu", r->dtr_str, r->dtr_len);

		for (unsigned i = 0; i < r->dtr_nargs; i++) {
			o += (size_t)snprintf(buf + o, len - o, " (");
			rec_text(buf + o, len - o, &r->dtr_args[i]);
			o = strlen(buf);
			o += (size_t)snprintf(buf + o, len - o, ")");
		}
		break;
	}
	case DTRACE_REC_PRINTA: {
		size_t o = (size_t)snprintf(buf, len, "printa %s", r->dtr_str ? r->dtr_str : "-");

		for (unsigned i = 0; i < r->dtr_naggs; i++)
			o += (size_t)snprintf(buf + o, len - o, " @%s", r->dtr_aggnames[i]);
		break;
	}
	case DTRACE_REC_EXIT:
		snprintf(buf, len, "exit EXIT %s %" PRId64, r->dtr_type, r->dtr_int);
		break;
	case DTRACE_REC_OTHER: {
		size_t o =
		    (size_t)snprintf(buf, len, "%s OTHER %" PRId64, r->dtr_action, r->dtr_int);

		if (r->dtr_str != NULL)
			o += (size_t)snprintf(buf + o, len - o, " \"%s\"", r->dtr_str);
		for (unsigned i = 0; i < r->dtr_naggs; i++)
			o += (size_t)snprintf(buf + o, len - o, " @%s", r->dtr_aggnames[i]);
		break;
	}
	}
}

static int on_probe(const dtrace_probedata_t *d, void *arg)
{
	log_t *l = arg;

	CHECK(d->dtpda_size >= sizeof(*d));
	CHECK(d->dtpda_cpu >= 0);
	CHECK(d->dtpda_epid > 0);
	addline(l, "probe %s:%s:%s:%s %u", d->dtpda_pdesc->dtpd_provider, d->dtpda_pdesc->dtpd_mod,
		d->dtpda_pdesc->dtpd_func, d->dtpda_pdesc->dtpd_name, d->dtpda_nrecs);
	return l->probe_rc;
}

static int on_rec(const dtrace_probedata_t *d, const dtrace_record_t *r, void *arg)
{
	log_t *l = arg;
	char buf[2048];

	(void)d;
	if (r == NULL) {
		addline(l, "end");
		return DTRACE_CONSUME_THIS;
	}
	CHECK(r->dtr_size >= sizeof(*r));
	if (r->dtr_kind == DTRACE_REC_STACK && l->stack_n == 0) {
		size_t o = 0;

		l->stack_pid = r->dtr_pid;
		l->stack_n = r->dtr_nframes;
		l->stack_flags = r->dtr_flags;
		for (unsigned i = 0; i < r->dtr_nframes && o < sizeof(l->stack) - 1; i++) {
			CHECK(r->dtr_pcs[i] != 0);
			o += (size_t)snprintf(l->stack + o, sizeof(l->stack) - o, "%s%s",
					      i ? " < " : "", r->dtr_frames[i]);
		}
		o = 0;
		for (unsigned i = 0; i < r->dtr_nframes && o < sizeof(l->parts) - 1; i++) {
			const char *m = r->dtr_fmodules[i], *f = r->dtr_fsymbols[i];

			if (f != NULL && r->dtr_foffsets[i] != 0)
				o += (size_t)snprintf(l->parts + o, sizeof(l->parts) - o,
						      "%s%s`%s+0x%" PRIx64, i ? " < " : "",
						      m ? m : "?", f, r->dtr_foffsets[i]);
			else if (f != NULL)
				o += (size_t)snprintf(l->parts + o, sizeof(l->parts) - o, "%s%s`%s",
						      i ? " < " : "", m ? m : "?", f);
			else
				o += (size_t)snprintf(l->parts + o, sizeof(l->parts) - o, "%s%s",
						      i ? " < " : "", r->dtr_frames[i]);
		}
	}
	if (r->dtr_kind == DTRACE_REC_SYM)
		snprintf(l->sym, sizeof(l->sym), "%s|%s|%" PRIu64 "|%s",
			 r->dtr_module ? r->dtr_module : "-", r->dtr_symbol ? r->dtr_symbol : "-",
			 r->dtr_offset, r->dtr_str);
	rec_text(buf, sizeof(buf), r);
	addline(l, "%s", buf);
	l->nrecs++;
	if (l->rec_rc_after != 0 && l->nrecs < (size_t)l->rec_rc_after)
		return DTRACE_CONSUME_THIS;
	return l->rec_rc;
}

/* The lines expected, NULL-ended, against the log (all of them, in order). */
static void check_log(const log_t *l, const char *const *want)
{
	size_t i = 0;

	for (; want[i] != NULL; i++) {
		if (i >= l->n) {
			CHECK_STR("(no more records)", want[i]);
			return;
		}
		CHECK_STR(l->lines[i], want[i]);
	}
	CHECK_INT(l->n, i);
	for (; i < l->n; i++)
		fprintf(stderr, "  unexpected: %s\n", l->lines[i]);
}

/* ---------------------------------------------------------------- running a program */

static dtrace_hdl_t *start(const char *prog, const char *const *opts, char *const *target)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	dtrace_prog_t *pgp;

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return NULL;
	for (int i = 0; opts != NULL && opts[i] != NULL; i += 2)
		CHECK_INT(dtrace_setopt(dtp, opts[i], opts[i + 1]), 0);
	if (target != NULL)
		CHECK(dtrace_proc_create(dtp, target) > 0); /* the process ID */
	pgp = dtrace_program_strcompile(dtp, prog, "test", 0, 0, NULL);
	if (pgp == NULL || dtrace_program_exec(dtp, pgp, NULL) != 0 || dtrace_go(dtp) != 0 ||
	    (target != NULL && dtrace_proc_continue(dtp) != 0)) {
		fprintf(stderr, "%s\n  %s\n", prog, dtrace_errmsg(dtp, dtrace_errno(dtp)));
		CHECK(!"the program runs");
		dtrace_close(dtp);
		return NULL;
	}
	return dtp;
}

/* Consume until DONE (or ERROR, returned); at most about 10 s. */
static dtrace_workstatus_t consume_all(dtrace_hdl_t *dtp, log_t *l)
{
	dtrace_consume_opts_t o = { .sz = sizeof(o), .probe = on_probe, .rec = on_rec, .arg = l };
	dtrace_workstatus_t st = DTRACE_WORKSTATUS_OKAY;

	for (int i = 0; i < 500 && st == DTRACE_WORKSTATUS_OKAY; i++) {
		dtrace_sleep(dtp);
		st = dtrace_consume(dtp, &o);
	}
	return st;
}

/* consume_all, the records not kept */
static dtrace_workstatus_t consume_quiet(dtrace_hdl_t *dtp)
{
	log_t l = { 0 };
	dtrace_workstatus_t st = consume_all(dtp, &l);

	log_free(&l);
	return st;
}

/* ---------------------------------------------------------------- records */

static void test_values(void)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	static const char *const want[] = {
		"probe dtrace:::BEGIN 15",
		"trace INT char w1 s1 -1 255",
		"trace INT unsigned char w1 s0 255 255",
		"trace INT short w2 s1 -2 65534",
		"trace INT uint16_t w2 s0 65535 65535",
		"trace INT int w4 s1 -3 4294967293",
		"trace INT uint32_t w4 s0 4294967295 4294967295",
		"trace INT int64_t w8 s1 -4 18446744073709551612",
		"trace INT uint64_t w8 s0 -1 18446744073709551615",
		"trace STRING string 5 \"hello\"",
		"trace STRING string 0 \"\"",
		"printf \"<42|x|-7|ff>\n\" 13 (arg INT int w4 s1 42 42) (arg STRING string 1 \"x\")"
		" (arg INT int64_t w8 s1 -7 18446744073709551609) (arg INT uint8_t w1 s0 255 255)",
		"tracemem BYTES  4 61 62 63 00",
		"setopt OTHER 0 \"quiet\"",
		"normalize OTHER 2 @n",
		"exit EXIT int 3",
		"end",
		NULL,
	};
	log_t l = { 0 };
	dtrace_hdl_t *dtp =
	    start("char buf[4]; BEGIN { @n = count(); trace((char)-1); "
		  "trace((unsigned char)255); trace((short)-2); "
		  "trace((uint16_t)65535); trace((int)-3); trace((uint32_t)-1); "
		  "trace((int64_t)-4); trace((uint64_t)-1); trace(\"hello\"); "
		  "trace(\"\"); printf(\"<%d|%s|%d|%x>\\n\", 42, \"x\", "
		  "(int64_t)-7, (uint8_t)255); buf[0] = 'a'; buf[1] = 'b'; buf[2] = 'c'; "
		  "tracemem(buf, 4); "
		  "setopt(\"quiet\"); normalize(@n, 2); exit(3); }",
		  opts, NULL);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
	check_log(&l, want);
	CHECK_INT(dtrace_status(dtp), DTRACE_STATUS_EXITED);
	CHECK_INT(dtrace_exit_value(dtp), 3);
	log_free(&l);
	dtrace_close(dtp);
}

/*
 * The bytes each record holds as traced (dtr_data, dtr_datalen) and how
 * dtrace(1) prints them (dtr_flags): a string's whole strsize buffer, an
 * empty one dumped, tracemem()'s dsize bytes dumped, an integer's bytes.
 */
typedef struct shown {
	char lines[16][128];
	int n;
} shown_t;

static int on_shown(const dtrace_probedata_t *d, const dtrace_record_t *r, void *arg)
{
	shown_t *s = arg;
	const unsigned char *p = r != NULL ? r->dtr_data : NULL;
	size_t o;

	(void)d;
	if (r == NULL || s->n >= 16)
		return DTRACE_CONSUME_THIS;
	/* a STRING's dtr_str is the string at the start of dtr_data */
	if (r->dtr_kind == DTRACE_REC_STRING)
		CHECK(strncmp(r->dtr_str, (const char *)p, r->dtr_datalen) == 0);
	o = (size_t)snprintf(s->lines[s->n], sizeof(s->lines[0]), "%s %zu %u", r->dtr_action,
			     r->dtr_datalen, r->dtr_flags);
	for (size_t i = 0; p != NULL && i < r->dtr_datalen && i < 8; i++)
		o += (size_t)snprintf(s->lines[s->n] + o, sizeof(s->lines[0]) - o, " %02x", p[i]);
	if (p == NULL)
		snprintf(s->lines[s->n] + o, sizeof(s->lines[0]) - o, " -");
	s->n++;
	return DTRACE_CONSUME_THIS;
}

static void test_data_and_flags(void)
{
	static const char *const opts[] = {
		"quiet", NULL, "strsize", "8", "stackframes", "4", NULL
	};
	static const char *const want[] = {
		"trace 8 1 68 69 00 00 00 00 00 00", /* "hi": a string */
		"trace 8 2 00 00 00 00 00 00 00 00", /* "": dumped, as dtrace prints it */
		"trace 8 2 01 02 00 00 00 00 00 00", /* not printable: dumped */
		"tracemem 3 2 61 62 63",	     /* tracemem(buf, 8, 3): 3 bytes, dumped */
		"trace 4 0 07 00 00 00",	     /* an int: a number */
		"trace 8 0 f9 ff ff ff ff ff ff ff", /* an int64_t */
		"printf 0 0 -",
		"stack 32 4", /* stack(): the kernel's, 4 frames of 8 bytes */
		"exit 4 0 00 00 00 00",
	};
	shown_t s = { 0 };
	dtrace_consume_opts_t o = { .sz = sizeof(o), .rec = on_shown, .arg = &s };
	dtrace_workstatus_t st = DTRACE_WORKSTATUS_OKAY;
	dtrace_hdl_t *dtp =
	    start("char buf[8]; char b2[8]; BEGIN { buf[0] = 'a'; buf[1] = 'b'; buf[2] = 'c'; "
		  "b2[0] = 1; b2[1] = 2; trace(\"hi\"); trace(\"\"); trace(stringof(b2)); "
		  "tracemem(buf, 8, 3); trace((int)7); trace((int64_t)-7); printf(\"x\"); "
		  "stack(); exit(0); }",
		  opts, NULL);

	if (dtp == NULL)
		return;
	for (int i = 0; i < 500 && st == DTRACE_WORKSTATUS_OKAY; i++) {
		dtrace_sleep(dtp);
		st = dtrace_consume(dtp, &o);
	}
	CHECK_INT(st, DTRACE_WORKSTATUS_DONE);
	CHECK_INT(s.n, (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < s.n && i < (int)(sizeof(want) / sizeof(want[0])); i++)
		if (strncmp(want[i], "stack", 5) == 0) /* its addresses vary */
			CHECK(strncmp(s.lines[i], want[i], strlen(want[i])) == 0);
		else
			CHECK_STR(s.lines[i], want[i]);
	dtrace_close(dtp);
}

/*
 * A firing's records stay valid until its end (the NULL record), as the
 * records' memory is freed a firing at a time: two printf()s and two
 * strings kept by pointer, read at the end.
 */
typedef struct kept {
	const char *str[4];
	int n, checked;
} kept_t;

static int on_kept(const dtrace_probedata_t *d, const dtrace_record_t *r, void *arg)
{
	kept_t *k = arg;

	(void)d;
	if (r != NULL && k->n < 4 &&
	    (r->dtr_kind == DTRACE_REC_PRINTF || r->dtr_kind == DTRACE_REC_STRING))
		k->str[k->n++] = r->dtr_str;
	if (r == NULL && k->n == 4) {
		CHECK_STR(k->str[0], "first 1");
		CHECK_STR(k->str[1], "one");
		CHECK_STR(k->str[2], "second 2");
		CHECK_STR(k->str[3], "two");
		k->checked++;
	}
	return DTRACE_CONSUME_THIS;
}

static void test_firing_lifetime(void)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	kept_t k = { 0 };
	dtrace_consume_opts_t o = { .sz = sizeof(o), .rec = on_kept, .arg = &k };
	dtrace_workstatus_t st = DTRACE_WORKSTATUS_OKAY;
	dtrace_hdl_t *dtp = start("BEGIN { printf(\"first %d\", 1); trace(\"one\"); "
				  "printf(\"second %d\", 2); trace(\"two\"); exit(0); }",
				  opts, NULL);

	if (dtp == NULL)
		return;
	for (int i = 0; i < 500 && st == DTRACE_WORKSTATUS_OKAY; i++) {
		dtrace_sleep(dtp);
		st = dtrace_consume(dtp, &o);
	}
	CHECK_INT(st, DTRACE_WORKSTATUS_DONE);
	CHECK_INT(k.checked, 1);
	dtrace_close(dtp);
}

/* Without quiet, a clause that records nothing is a firing of no records. */
static void test_empty_clause(void)
{
	static const char *const want[] = {
		"probe dtrace:::BEGIN 0",
		"end",
		"probe dtrace:::BEGIN 1",
		"exit EXIT int 0",
		"end",
		"probe dtrace:::END 0",
		"end",
		NULL,
	};
	log_t l = { 0 };
	dtrace_hdl_t *dtp = start("BEGIN {} BEGIN { exit(0); } END {}", NULL, NULL);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
	check_log(&l, want);
	log_free(&l);
	dtrace_close(dtp);
}

/* A committed speculation: its records right after the commit's firing, in order. */
static void test_speculation(void)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	static const char *const want[] = {
		"probe dtrace:::BEGIN 1",
		"trace INT int w4 s1 0 0",
		"end",
		"probe dtrace:::BEGIN 1",
		"trace INT int w4 s1 10 10",
		"end",
		"probe dtrace:::BEGIN 1",
		"commit OTHER 1",
		"end",
		"probe dtrace:::BEGIN 2",
		"trace INT int w4 s1 1 1",
		"trace STRING string 4 \"spec\"",
		"end",
		"probe dtrace:::BEGIN 1",
		"trace INT int w4 s1 2 2",
		"end",
		"probe dtrace:::BEGIN 1",
		"exit EXIT int 0",
		"end",
		NULL,
	};
	log_t l = { 0 };
	dtrace_hdl_t *dtp = start("BEGIN { s = speculation(); trace(0); } "
				  "BEGIN { speculate(s); trace(1); trace(\"spec\"); } "
				  "BEGIN { trace(10); } "
				  "BEGIN { commit(s); } "
				  "BEGIN { trace(2); } "
				  "BEGIN { exit(0); }",
				  opts, NULL);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
	check_log(&l, want);
	log_free(&l);
	dtrace_close(dtp);
}

/* ustack() of a process: its frames named, innermost first, up to main. */
static void test_ustack(const char *self)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	char *argv[] = { (char *)self, (char *)"child", NULL };
	log_t l = { 0 };
	char want[256];
	dtrace_hdl_t *dtp = start("pid$target::rec_leaf:entry { ustack(); exit(0); }", opts, argv);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
	CHECK(l.n >= 4);
	if (l.n >= 4) {
		CHECK(strncmp(l.lines[0], "probe pid", 9) == 0);
		CHECK_STR(l.lines[1], "ustack STACK stack");
		CHECK_STR(l.lines[2], "exit EXIT int 0");
	}
	CHECK_INT(l.stack_pid, dtrace_proc_target(dtp));
	CHECK_INT(l.stack_flags, 0); /* the process's, not the kernel's */
	CHECK(l.stack_n >= 3);
	/* the first frame is the probe's function, at its first byte */
	snprintf(want, sizeof(want), "%s`rec_leaf",
		 strrchr(self, '/') ? strrchr(self, '/') + 1 : self);
	CHECK(strncmp(l.stack, want, strlen(want)) == 0 &&
	      (l.stack[strlen(want)] == '\0' || l.stack[strlen(want)] == ' '));
	CHECK(strstr(l.stack, "`rec_mid+0x") != NULL);
	CHECK(strstr(l.stack, "`main+0x") != NULL);
	/* module, symbol and offset of each frame make the name dtrace prints */
	CHECK_STR(l.parts, l.stack);
	if (strncmp(l.stack, want, strlen(want)) != 0 || strstr(l.stack, "`main+0x") == NULL)
		fprintf(stderr, "  stack: %s\n", l.stack);
	log_free(&l);
	dtrace_close(dtp);
}

/* ---------------------------------------------------------------- callbacks stopping */

static void test_callback_returns(void)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	static const char *const prog = "BEGIN { trace(1); trace(2); } BEGIN { trace(3); } "
					"BEGIN { exit(0); }";
	dtrace_hdl_t *dtp;
	log_t l = { 0 };

	/* NEXT from the probe callback: no records, no end; exit() is still done */
	if ((dtp = start(prog, opts, NULL)) != NULL) {
		static const char *const want[] = { "probe dtrace:::BEGIN 2",
						    "probe dtrace:::BEGIN 1",
						    "probe dtrace:::BEGIN 1", NULL };

		l.probe_rc = DTRACE_CONSUME_NEXT;
		CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
		CHECK_INT(dtrace_status(dtp), DTRACE_STATUS_EXITED);
		check_log(&l, want);
		log_free(&l);
		dtrace_close(dtp);
	}
	/* NEXT from a record: the rest of that firing skipped, the next one's passed */
	if ((dtp = start(prog, opts, NULL)) != NULL) {
		static const char *const want[] = {
			"probe dtrace:::BEGIN 2",
			"trace INT int w4 s1 1 1",
			"probe dtrace:::BEGIN 1",
			"trace INT int w4 s1 3 3",
			"probe dtrace:::BEGIN 1",
			"exit EXIT int 0",
			NULL,
		};

		l.rec_rc = DTRACE_CONSUME_NEXT;
		CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
		check_log(&l, want);
		log_free(&l);
		dtrace_close(dtp);
	}
	/* ABORT: dtrace_consume fails with EDT_DIRABORT, no more calls in that pass */
	if ((dtp = start(prog, opts, NULL)) != NULL) {
		dtrace_workstatus_t st;

		l.rec_rc = DTRACE_CONSUME_ABORT;
		l.rec_rc_after = 2;
		st = consume_all(dtp, &l);
		CHECK_INT(st, DTRACE_WORKSTATUS_ERROR);
		CHECK_INT(dtrace_errno(dtp), EDT_DIRABORT);
		CHECK_INT(l.nrecs, 2);
		CHECK_STR(l.lines[l.n - 1], "trace INT int w4 s1 2 2");
		/* the exit() after it was still done: the next consume ends */
		l.rec_rc = DTRACE_CONSUME_THIS;
		CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
		CHECK_INT(dtrace_status(dtp), DTRACE_STATUS_EXITED);
		log_free(&l);
		dtrace_close(dtp);
	}
	/* ERROR: EDT_CALLBACK, with its message */
	if ((dtp = start(prog, opts, NULL)) != NULL) {
		l.rec_rc = DTRACE_CONSUME_ERROR;
		CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_ERROR);
		CHECK_INT(dtrace_errno(dtp), EDT_CALLBACK);
		CHECK_INT(l.nrecs, 1);
		CHECK_STR(dtrace_errmsg(dtp, EDT_CALLBACK),
			  "A consumer callback returned an error");
		log_free(&l);
		dtrace_close(dtp);
	}
}

/* ---------------------------------------------------------------- printa */

typedef struct printa_ctx {
	dtrace_hdl_t *dtp;
	int printas, entries, inner_rc, inner_err, walk_rc;
	char names[64];
} printa_ctx_t;

static int count_entry(const dtrace_aggdata_t *a, void *arg)
{
	printa_ctx_t *c = arg;

	CHECK_STR(a->dtada_name, "a");
	c->entries++;
	return 0;
}

/* A PRINTA record: its aggregations walked from the callback, as printa would print them. */
static int printa_rec(const dtrace_probedata_t *d, const dtrace_record_t *r, void *arg)
{
	printa_ctx_t *c = arg;
	dtrace_consume_opts_t o = { .sz = sizeof(o) };
	dtrace_aggwalk_opts_t w = { .sz = sizeof(w) };

	(void)d;
	if (r == NULL || r->dtr_kind != DTRACE_REC_PRINTA)
		return DTRACE_CONSUME_THIS;
	c->printas++;
	snprintf(c->names, sizeof(c->names), "%u %s %s", r->dtr_naggs,
		 r->dtr_naggs > 0 ? r->dtr_aggnames[0] : "", r->dtr_str ? r->dtr_str : "-");
	w.name = r->dtr_aggnames[0];
	c->walk_rc = dtrace_aggregate_walk(c->dtp, &w, count_entry, c);
	c->inner_rc = dtrace_consume(c->dtp, &o); /* not from a callback */
	c->inner_err = dtrace_errno(c->dtp);
	return DTRACE_CONSUME_THIS;
}

static void test_printa(void)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	printa_ctx_t c = { 0 };
	dtrace_consume_opts_t o = { .sz = sizeof(o), .rec = printa_rec, .arg = &c };
	dtrace_workstatus_t st = DTRACE_WORKSTATUS_OKAY;

	c.dtp = start("BEGIN { @a[\"x\"] = count(); @a[\"y\"] = count(); @b = count(); printa(@a); "
		      "exit(0); }",
		      opts, NULL);
	if (c.dtp == NULL)
		return;
	for (int i = 0; i < 500 && st == DTRACE_WORKSTATUS_OKAY; i++) {
		dtrace_sleep(c.dtp);
		st = dtrace_consume(c.dtp, &o);
	}
	CHECK_INT(st, DTRACE_WORKSTATUS_DONE);
	CHECK_INT(c.printas, 1);
	CHECK_STR(c.names, "1 a -");
	CHECK_INT(c.walk_rc, 0);
	CHECK_INT(c.entries, 2);
	CHECK_INT(c.inner_rc, DTRACE_WORKSTATUS_ERROR);
	CHECK_INT(c.inner_err, EDT_BADARG);
	dtrace_close(c.dtp);
}

/* ---------------------------------------------------------------- misuse */

static int walk_count(const dtrace_aggdata_t *a, void *arg)
{
	(void)a;
	return ++*(int *)arg >= 1 ? 7 : 0; /* stops at the first */
}

static void test_misuse(void)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	dtrace_consume_opts_t o = { .sz = sizeof(o) };
	struct {
		dtrace_consume_opts_t o;
		uint64_t more;
	} big = { { .sz = sizeof(big) }, 1 };
	dtrace_aggwalk_opts_t w = { .sz = sizeof(w) };
	int err, n = 0;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);

	/* a kind's name (real entries' names: the JSON goldens, the bindings' tests) */
	CHECK_STR(dtrace_aggkind_name(DTRACE_AGG_LLQUANTIZE), "llquantize");
	CHECK(dtrace_aggkind_name((dtrace_aggkind_t)(DTRACE_AGG_LLQUANTIZE + 1)) == NULL);
	CHECK(dtrace_aggkind_name((dtrace_aggkind_t)-1) == NULL);
	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	/* not tracing yet */
	CHECK_INT(dtrace_consume(dtp, &o), DTRACE_WORKSTATUS_ERROR);
	CHECK_INT(dtrace_errno(dtp), EDT_NOTRACE);
	CHECK_INT(dtrace_aggregate_walk(dtp, NULL, walk_count, &n), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_NOTRACE);
	/* bad options, whether tracing or not */
	CHECK_INT(dtrace_consume(dtp, NULL), DTRACE_WORKSTATUS_ERROR);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK(strstr(dtrace_errmsg(dtp, EDT_BADARG), "NULL") != NULL);
	o.sz = 0;
	CHECK_INT(dtrace_consume(dtp, &o), DTRACE_WORKSTATUS_ERROR);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK(strstr(dtrace_errmsg(dtp, EDT_BADARG), "sz") != NULL);
	CHECK_INT(dtrace_consume(dtp, &big.o), DTRACE_WORKSTATUS_ERROR);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK(strstr(dtrace_errmsg(dtp, EDT_BADARG), "does not know") != NULL);
	CHECK_INT(dtrace_consume(NULL, &o), DTRACE_WORKSTATUS_ERROR);
	CHECK_INT(dtrace_aggregate_walk(NULL, NULL, walk_count, &n), -1);
	dtrace_close(dtp);

	if ((dtp = start("BEGIN { @a[1] = count(); @a[2] = count(); @b = sum(3); exit(0); }", opts,
			 NULL)) == NULL)
		return;
	CHECK_INT(consume_quiet(dtp), DTRACE_WORKSTATUS_DONE);
	CHECK_INT(dtrace_aggregate_walk(dtp, &w, NULL, NULL), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	w.name = "nosuch";
	CHECK_INT(dtrace_aggregate_walk(dtp, &w, walk_count, &n), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK(strstr(dtrace_errmsg(dtp, EDT_BADARG), "@nosuch") != NULL);
	w.name = NULL;
	w.flags = 0x100;
	CHECK_INT(dtrace_aggregate_walk(dtp, &w, walk_count, &n), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	w.flags = 0;
	w.sz = 1;
	CHECK_INT(dtrace_aggregate_walk(dtp, &w, walk_count, &n), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	/* the function's non-zero value stops the walk and is returned */
	w.sz = sizeof(w);
	CHECK_INT(dtrace_aggregate_walk(dtp, &w, walk_count, &n), 7);
	CHECK_INT(n, 1);
	dtrace_close(dtp);
}

/* ---------------------------------------------------------------- aggregations */

typedef struct walklog {
	char **lines;
	size_t n;
	dtrace_hdl_t *dtp;
} walklog_t;

/* An entry as the text output prints it (keys, value or bucket rows), one line. */
static int walk_text(const dtrace_aggdata_t *a, void *arg)
{
	walklog_t *w = arg;
	char buf[8192];
	size_t o = 0;

	CHECK(a->dtada_size >= sizeof(*a));
	for (unsigned k = 0; k < a->dtada_nkeys; k++) {
		const dtrace_record_t *r = &a->dtada_keys[k];

		CHECK_STR(r->dtr_action, "key");
		if (r->dtr_kind == DTRACE_REC_INT)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%" PRId64 " ", r->dtr_int);
		else if (r->dtr_kind == DTRACE_REC_STRING)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s ", r->dtr_str);
		else
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "? ");
	}
	if (a->dtada_nbuckets == 0)
		snprintf(buf + o, sizeof(buf) - o, "%" PRId64, a->dtada_value);
	for (unsigned b = 0; b < a->dtada_nbuckets; b++) {
		const dtrace_aggbucket_t *bk = &a->dtada_buckets[b];
		char label[64];

		/* the label dtrace prints: lo, quantize's negative buckets hi, < and >= at the ends */
		if (bk->dtab_lo == INT64_MIN && a->dtada_kind != DTRACE_AGG_QUANTIZE)
			snprintf(label, sizeof(label), "< %" PRId64, bk->dtab_hi + 1);
		else if (bk->dtab_hi == INT64_MAX && a->dtada_kind != DTRACE_AGG_QUANTIZE)
			snprintf(label, sizeof(label), ">= %" PRId64, bk->dtab_lo);
		else if (a->dtada_kind == DTRACE_AGG_QUANTIZE && bk->dtab_hi < 0)
			snprintf(label, sizeof(label), "%" PRId64, bk->dtab_hi);
		else
			snprintf(label, sizeof(label), "%" PRId64, bk->dtab_lo);
		o = strlen(buf);
		snprintf(buf + o, sizeof(buf) - o, "%s[%s]%" PRId64, b ? " " : "", label,
			 bk->dtab_count);
	}
	w->lines = realloc(w->lines, (w->n + 1) * sizeof(*w->lines));
	w->lines[w->n++] = strdup(buf);
	return 0;
}

/*
 * What dtrace_aggregate_write prints, as walk_text writes it: each line of
 * keys and a value one entry; a "value ---- Distribution ---- count" header
 * starts the rows of a quantization, which are the previous keys' buckets.
 */
static void push(walklog_t *p, const char *s)
{
	p->lines = realloc(p->lines, (p->n + 1) * sizeof(*p->lines));
	p->lines[p->n++] = strdup(s);
}

static void printed_text(dtrace_hdl_t *dtp, walklog_t *p)
{
	char *text = NULL, *save = NULL, cur[8192] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool rows = false, pending = false;

	CHECK_INT(dtrace_aggregate_write(dtp, f), 0);
	fclose(f);
	for (char *line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *bar = strchr(line, '|');

		if (strstr(line, "Distribution") != NULL) { /* cur: the quantization's keys */
			rows = true;
			continue;
		}
		if (rows && bar != NULL) { /* "  label |@@@  count" */
			long long count = strtoll(bar + 1 + strspn(bar + 1, "@ "), NULL, 10);
			char *s = line + strspn(line, " ");
			size_t n = (size_t)(bar - s), o = strlen(cur);

			while (n > 0 && s[n - 1] == ' ')
				n--;
			snprintf(cur + o, sizeof(cur) - o, "%s[%.*s]%lld",
				 o == 0 || cur[o - 1] == ' ' ? "" : " ", (int)n, s, count);
			continue;
		}
		/* an entry's line: its words joined by a space */
		if (pending)
			push(p, cur);
		rows = false;
		cur[0] = '\0';
		for (char *s2 = NULL, *t = strtok_r(line, " ", &s2); t != NULL;
		     t = strtok_r(NULL, " ", &s2))
			snprintf(cur + strlen(cur), sizeof(cur) - strlen(cur), "%s%s",
				 cur[0] ? " " : "", t);
		pending = cur[0] != '\0';
	}
	if (pending)
		push(p, cur);
	free(text);
}

static void walklog_free(walklog_t *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->lines[i]);
	free(w->lines);
	memset(w, 0, sizeof(*w));
}

static const char agg_prog[] =
    "BEGIN {"
    " @c[\"a\", 1] = count(); @c[\"a\", 1] = count(); @c[\"b\", 2] = count();"
    " @c[\"c\", -3] = count(); @c[\"c\", -3] = count(); @c[\"c\", -3] = count();"
    " @s[\"a\", 1] = sum(10); @s[\"b\", 2] = sum(-3);"
    " @av[\"a\", 1] = avg(1); @av[\"a\", 1] = avg(2);"
    " @mn[\"a\", 1] = min(5); @mn[\"a\", 1] = min(-7);"
    " @mx[\"a\", 1] = max(5); @mx[\"a\", 1] = max(9);"
    " @sd[\"a\", 1] = stddev(1); @sd[\"a\", 1] = stddev(4);"
    " @q[\"a\", 1] = quantize(1); @q[\"a\", 1] = quantize(5); @q[\"a\", 1] = quantize(-3);"
    " @q[\"b\", 2] = quantize(100);"
    " @lq[\"a\", 1] = lquantize(3, 0, 10, 2); @lq[\"a\", 1] = lquantize(11, 0, 10, 2);"
    " @lq[\"a\", 1] = lquantize(-1, 0, 10, 2);"
    " @llq[\"a\", 1] = llquantize(50, 10, 0, 3, 10); @llq[\"a\", 1] = llquantize(7, 10, 0, 3, 10);"
    " exit(0); }";

/* Every entry of every aggregation, walked, against the printed text. */
static void agg_run(const char *const *opts, walklog_t *walked)
{
	walklog_t printed = { 0 };
	dtrace_hdl_t *dtp = start(agg_prog, opts, NULL);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_quiet(dtp), DTRACE_WORKSTATUS_DONE);
	CHECK_INT(dtrace_aggregate_walk(dtp, NULL, walk_text, walked), 0);
	printed_text(dtp, &printed);
	CHECK_INT(walked->n, printed.n);
	for (size_t i = 0; i < walked->n && i < printed.n; i++)
		CHECK_STR(walked->lines[i], printed.lines[i]);
	walklog_free(&printed);
	dtrace_close(dtp);
}

/* avg() and stddev() as printed, and their exact values */
static int walk_exact(const dtrace_aggdata_t *a, void *arg)
{
	double *out = arg;

	if (a->dtada_kind == DTRACE_AGG_AVG) {
		out[0] = (double)a->dtada_value;
		out[1] = a->dtada_fvalue;
	} else if (a->dtada_kind == DTRACE_AGG_STDDEV) {
		out[2] = (double)a->dtada_value;
		out[3] = a->dtada_fvalue;
	}
	return 0;
}

/* A quantization's buckets: "[lo]count/before" each, before normalize() */
static int walk_counts(const dtrace_aggdata_t *a, void *arg)
{
	char *out = arg;
	size_t o = strlen(out);

	o += (size_t)snprintf(out + o, 512 - o, "%s /%" PRId64 ":", a->dtada_name, a->dtada_normal);
	if (a->dtada_kind < DTRACE_AGG_QUANTIZE)
		snprintf(out + o, 512 - o, " %" PRId64 ";", a->dtada_value);
	for (unsigned i = 0; i < a->dtada_nbuckets && o < 480; i++)
		o += (size_t)snprintf(out + o, 512 - o, " [%" PRId64 "]%" PRId64 "/%" PRId64,
				      a->dtada_buckets[i].dtab_lo, a->dtada_buckets[i].dtab_count,
				      a->dtada_counts[i]);
	if (a->dtada_kind >= DTRACE_AGG_QUANTIZE)
		snprintf(out + strlen(out), 512 - strlen(out), ";");
	return 0;
}

/* normalize(): the walk gives its factor and the counts before it (a bucket of 1 shows 0). */
static void test_normalized(void)
{
	static const char *const quiet[] = { "quiet", NULL, NULL };
	char out[512] = "";
	dtrace_hdl_t *dtp =
	    start("BEGIN { @q = quantize(1); @q = quantize(4); @q = quantize(4); "
		  "@q = quantize(4); normalize(@q, 2); @c = count(); @c = count(); "
		  "@c = count(); @c = count(); normalize(@c, 4); @n = count(); exit(0); }",
		  quiet, NULL);

	if (dtp == NULL)
		return;
	CHECK_INT(consume_quiet(dtp), DTRACE_WORKSTATUS_DONE);
	CHECK_INT(dtrace_aggregate_walk(dtp, NULL, walk_counts, out), 0);
	CHECK_STR(out, "q /2: [0]0/0 [1]0/1 [2]0/0 [4]1/3 [8]0/0;c /4: 1;n /1: 1;");
	dtrace_close(dtp);
}

static void test_aggregations(void)
{
	static const char *const quiet[] = { "quiet", NULL, NULL };
	static const char *const rev[] = { "quiet", NULL, "aggsortrev", NULL, NULL };
	static const char *const bykey[] = { "quiet", NULL, "aggsortkey", NULL, NULL };
	static const char *const want[] = {
		/* by id: @c, @s, @av, @mn, @mx, @sd, @q, @lq, @llq; by value within each */
		"b 2 1",
		"a 1 2",
		"c -3 3",
		"b 2 -3",
		"a 1 10",
		"a 1 1",
		"a 1 -7",
		"a 1 9",
		"a 1 2",
		"a 1 [-4]0 [-2]1 [-1]0 [0]0 [1]1 [2]0 [4]1 [8]0",
		"b 2 [32]0 [64]1 [128]0",
		"a 1 [< 0]1 [0]0 [2]1 [4]0 [6]0 [8]0 [>= 10]1",
		"a 1 [6]0 [7]1 [8]0 [9]0 [10]0 [20]0 [30]0 [40]0 [50]1 [60]0",
		NULL,
	};
	walklog_t w = { 0 };
	size_t i;
	double ex[4] = { 0 };
	dtrace_hdl_t *dtp;

	agg_run(quiet, &w);
	for (i = 0; want[i] != NULL && i < w.n; i++)
		CHECK_STR(w.lines[i], want[i]);
	CHECK_INT(w.n, i);
	walklog_free(&w);

	/* aggsortrev: the aggregations and each one's entries in reverse */
	agg_run(rev, &w);
	CHECK(w.n == 13);
	if (w.n == 13) {
		CHECK_STR(w.lines[0], want[12]);
		CHECK_STR(w.lines[3], want[9]);
		CHECK_STR(w.lines[2], want[10]);
		CHECK_STR(w.lines[10], "c -3 3");
		CHECK_STR(w.lines[12], "b 2 1");
	}
	walklog_free(&w);

	/* aggsortkey: by the keys (the string, then the integer), as printed */
	agg_run(bykey, &w);
	CHECK(w.n == 13);
	if (w.n == 13) {
		CHECK_STR(w.lines[0], "a 1 2");
		CHECK_STR(w.lines[2], "c -3 3");
		CHECK_STR(w.lines[3], "a 1 10");
	}
	walklog_free(&w);

	/* one aggregation by name; and avg, stddev exactly */
	if ((dtp = start("BEGIN { @av = avg(1); @av = avg(2); @sd = stddev(1); @sd = stddev(4);"
			 " exit(0); }",
			 quiet, NULL)) != NULL) {
		dtrace_aggwalk_opts_t o = { .sz = sizeof(o), .name = "sd" };

		CHECK_INT(consume_quiet(dtp), DTRACE_WORKSTATUS_DONE);
		CHECK_INT(dtrace_aggregate_walk(dtp, &o, walk_exact, ex), 0);
		CHECK(ex[0] == 0 && ex[1] == 0); /* @av not walked */
		CHECK_INT(ex[2], 2);		 /* illumos's integer stddev of 1, 4 */
		CHECK(fabs(ex[3] - 1.5) < 1e-9);
		CHECK_INT(dtrace_aggregate_walk(dtp, NULL, walk_exact, ex), 0);
		CHECK_INT(ex[0], 1);
		CHECK(fabs(ex[1] - 1.5) < 1e-9);
		/* MARK: dtrace_aggregate_print prints what was not walked so */
		o.name = "av";
		o.flags = DTRACE_AGGWALK_MARK;
		CHECK_INT(dtrace_aggregate_walk(dtp, &o, walk_exact, ex), 0);
		{
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);

			CHECK_INT(dtrace_aggregate_print(dtp, f), 0);
			fclose(f);
			CHECK_STR(text, "                2\n"); /* @sd's; @av is marked */
			free(text);
		}
		dtrace_close(dtp);
	}
}

/* ---------------------------------------------------------------- symbols, faults, drops */

/*
 * ufunc() and uaddr() of ucaller in rec_leaf: rec_mid, the module, symbol
 * and offset of which make the name printed.
 */
static void test_symbol_parts(const char *self)
{
	static const char *const opts[] = { "quiet", NULL, NULL };
	char *argv[] = { (char *)self, (char *)"child", NULL };
	const char *base = strrchr(self, '/') ? strrchr(self, '/') + 1 : self;
	char want[512];
	unsigned long off = 0;
	log_t l = { 0 };
	dtrace_hdl_t *dtp;

	dtp = start("pid$target::rec_leaf:entry { ufunc(ucaller); exit(0); }", opts, argv);
	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
	snprintf(want, sizeof(want), "%s|rec_mid|0|%s`rec_mid", base, base);
	CHECK_STR(l.sym, want);
	log_free(&l);
	dtrace_close(dtp);
	dtp = start("pid$target::rec_leaf:entry { uaddr(ucaller); exit(0); }", opts, argv);
	if (dtp == NULL)
		return;
	CHECK_INT(consume_all(dtp, &l), DTRACE_WORKSTATUS_DONE);
	snprintf(want, sizeof(want), "%s|rec_mid|", base);
	CHECK(strncmp(l.sym, want, strlen(want)) == 0);
	CHECK(sscanf(l.sym + strlen(want), "%lu", &off) == 1 && off > 0);
	snprintf(want, sizeof(want), "%s|rec_mid|%lu|%s`rec_mid+0x%lx", base, off, base, off);
	CHECK_STR(l.sym, want);
	log_free(&l);
	dtrace_close(dtp);
}

typedef struct {
	int nerr, ndrop;
	dtrace_errdata_t err; /* the last, its strings copied */
	char fault[64], msg[512], prov[64];
	char dropkind[64];
	uint64_t drops;
	int dropcpu;
} handled_t;

static void on_errdata(const dtrace_errdata_t *e, void *arg)
{
	handled_t *h = arg;

	CHECK(e->dteda_size >= sizeof(*e));
	h->nerr++;
	h->err = *e;
	snprintf(h->fault, sizeof(h->fault), "%s", e->dteda_fault);
	snprintf(h->msg, sizeof(h->msg), "%s", e->dteda_msg);
	snprintf(h->prov, sizeof(h->prov), "%s", e->dteda_pdesc->dtpd_provider);
}

static void on_dropdata(const dtrace_dropdata_t *d, void *arg)
{
	handled_t *h = arg;

	CHECK(d->dtdda_size >= sizeof(*d));
	h->ndrop++;
	snprintf(h->dropkind, sizeof(h->dropkind), "%s", d->dtdda_kind);
	h->drops += d->dtdda_drops;
	h->dropcpu = d->dtdda_cpu;
}

static void count_msg(const char *msg, void *arg)
{
	(void)msg;
	(*(int *)arg)++;
}

/* A fault and failed speculations as data, not messages */
static void test_errdata_dropdata(void)
{
	static const char *const opts[] = { "quiet", NULL, "nspec", "1", NULL };
	handled_t h = { 0 };
	int msgs = 0;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	CHECK_INT(dtrace_handle_errdata(NULL, on_errdata, &h), -1);
	CHECK_INT(dtrace_handle_errdata(dtp, on_errdata, &h), 0);
	CHECK_INT(dtrace_handle_dropdata(dtp, on_dropdata, &h), 0);
	CHECK_INT(dtrace_handle_err(dtp, count_msg, &msgs), 0); /* not called: errdata is */
	CHECK_INT(dtrace_handle_drop(dtp, count_msg, &msgs), 0);
	for (int i = 0; opts[i] != NULL; i += 2)
		CHECK_INT(dtrace_setopt(dtp, opts[i], opts[i + 1]), 0);
	pgp = dtrace_program_strcompile(dtp,
					"BEGIN { a = speculation(); b = speculation(); }\n"
					"BEGIN { trace(*(int *)8); }\n"
					"BEGIN { exit(0); }",
					"test", 0, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL || dtrace_program_exec(dtp, pgp, NULL) != 0 || dtrace_go(dtp) != 0) {
		fprintf(stderr, "  %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return;
	}
	CHECK_INT(consume_quiet(dtp), DTRACE_WORKSTATUS_DONE);
	CHECK_INT(h.nerr, 1);
	CHECK_STR(h.fault, "invalid address");
	CHECK_INT((int64_t)h.err.dteda_addr, 8);
	CHECK_INT(h.err.dteda_action, 1);
	CHECK_STR(h.prov, "dtrace");
	CHECK(strncmp(h.msg,
		      "error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address "
		      "(0x8) in action #1",
		      80) == 0);
	CHECK_INT(h.ndrop, 1);
	CHECK_STR(h.dropkind, "speculation_unavailable");
	CHECK_INT((int64_t)h.drops, 1);
	CHECK_INT(h.dropcpu, -1);
	CHECK_INT(msgs, 0);
	dtrace_close(dtp);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child();
	if (geteuid() != 0) {
		fprintf(stderr, "test_records: not root: cannot trace\n");
		return getenv("CI") && strcmp(getenv("CI"), "true") == 0 ? 1 : 77;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	test_misuse();
	test_values();
	test_data_and_flags();
	test_firing_lifetime();
	test_empty_clause();
	test_speculation();
	test_printa();
	test_callback_returns();
	test_aggregations();
	test_normalized();
	test_ustack(argv[0]);
	test_symbol_parts(argv[0]);
	test_errdata_dropdata();
	return CHECK_DONE();
}
