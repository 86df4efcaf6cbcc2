/*
 * lu_consumer.c -- dtrace.consumer: compile and run D programs from Lua
 * (over libdtrace), in the order of cmd/dtrace.c: open, options, target,
 * compile and enable, go, sleep/work until done, aggregations, close.
 *
 *   local c <close> = dtrace.consumer{options = {bufsize = "4m"}}
 *   c:spawn{"lua5.4", "app.lua"}          -- or c:grab(pid): $target
 *   c:compile('lua$target:::function-entry { @[copyinstr(arg0)] = count(); }')
 *   for rec in c:records() do ... end     -- or c:run(function(rec) ... end)
 *   local aggs = c:aggregations()         -- aggs.name[k1][k2] = value
 *
 * Records come from libdtrace's records API (dtrace_consume(),
 * dtrace_aggregate_walk(), the errdata and dropdata handlers), in the
 * shapes of oformat=json (docs/json.md) as Lua values.  The callbacks copy
 * what they receive into a queue in C; the records wait there until Lua
 * asks for them and become Lua values one at a time, outside libdtrace's
 * frames, so an error or an interruption in Lua code loses nothing and
 * leaves the consumer usable.  Fault and drop messages are kept for
 * c:messages() instead of going to stderr.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <dtrace.h>

#include "lu_impl.h"

#define CONSUMER_MT "dtrace.Consumer"
#define MAXMSGS	    1000 /* messages kept between two c:messages() */

typedef struct {
	dtrace_hdl_t *dtp; /* NULL once closed */
	unsigned cflags;
	int spawned; /* the process we created (killed at close if it runs), or 0 */
	bool started, done, reported, first;
	bool quiet;	  /* the quiet option, read at go */
	lu_buf_t pend;	  /* records not returned yet, from pos (encoded: see q_push) */
	size_t pos, good; /* good: the end of the last whole record in pend */
	lu_buf_t side;	  /* printa()'s entries, errors and drops during a firing */
	size_t probe_at;  /* where the firing being written starts in pend */
	unsigned ndata;	  /* its data values */
	bool in_probe, oom, walkerr;
	lu_buf_t msgs; /* messages, each ending in '\n' */
	unsigned nmsgs, lost;
	lu_buf_t aggq; /* the last aggregation snapshot, encoded */
} consumer_t;

static void on_message(const char *msg, void *arg)
{
	consumer_t *c = arg;
	size_t len = c->msgs.len;

	if (c->nmsgs >= MAXMSGS || lu_buf_add(&c->msgs, msg, strlen(msg)) != 0 ||
	    lu_buf_add(&c->msgs, "\n", 1) != 0) {
		c->msgs.len = len;
		c->lost++;
		return;
	}
	c->nmsgs++;
}

static consumer_t *checkconsumer(lua_State *L)
{
	return luaL_checkudata(L, 1, CONSUMER_MT);
}

static consumer_t *checkopen(lua_State *L)
{
	consumer_t *c = checkconsumer(L);

	if (c->dtp == NULL)
		luaL_error(L, "the consumer is closed");
	return c;
}

static int hdl_error(lua_State *L, consumer_t *c, const char *what)
{
	return luaL_error(L, "%s: %s", what, dtrace_errmsg(c->dtp, dtrace_errno(c->dtp)));
}

/* Set option name to the value at idx: true a switch, false nothing, a list each value. */
static void setopt(lua_State *L, consumer_t *c, const char *name, int idx)
{
	const char *v;

	idx = lua_absindex(L, idx);
	if (strcmp(name, "oformat") == 0)
		luaL_error(L, "option oformat: the Lua binding reads records (it always reads "
			      "oformat=json's values)");
	switch (lua_type(L, idx)) {
	case LUA_TBOOLEAN:
		if (lua_toboolean(L, idx) && dtrace_setopt(c->dtp, name, NULL) != 0)
			hdl_error(L, c, lua_pushfstring(L, "option %s", name));
		return;
	case LUA_TNUMBER:
	case LUA_TSTRING:
		lua_pushvalue(L, idx);
		v = lua_tostring(L, -1);
		if (dtrace_setopt(c->dtp, name, v) != 0)
			hdl_error(L, c, lua_pushfstring(L, "option %s", name));
		lua_pop(L, 1);
		return;
	case LUA_TTABLE: /* define = {"A=1", "B"} */
		for (lua_Integer i = 1; lua_rawgeti(L, idx, i) != LUA_TNIL; i++) {
			if (lua_type(L, -1) == LUA_TTABLE)
				luaL_error(L, "option %s: a list of values, not of lists", name);
			setopt(L, c, name, -1);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		return;
	default:
		luaL_error(L, "option %s: a string, number, boolean or list, not %s", name,
			   luaL_typename(L, idx));
	}
}

static void on_errdata(const dtrace_errdata_t *e, void *arg);
static void on_dropdata(const dtrace_dropdata_t *d, void *arg);

/* dtrace.consumer{options = {name = value}, cpp = false} */
static int l_consumer(lua_State *L)
{
	consumer_t *c;
	bool quiet = true;
	int err = 0;

	if (!lua_isnoneornil(L, 1))
		luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	c = lua_newuserdatauv(L, sizeof(*c), 0);
	memset(c, 0, sizeof(*c));
	luaL_setmetatable(L, CONSUMER_MT);
	if ((c->dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL)
		return luaL_error(L, "dtrace.consumer: %s", dtrace_errmsg(NULL, err));
	dtrace_handle_errdata(c->dtp, on_errdata, c);
	dtrace_handle_dropdata(c->dtp, on_dropdata, c);
	if (lua_istable(L, 1)) {
		lua_pushnil(L);
		while (lua_next(L, 1) != 0) {
			const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";

			if (strcmp(k, "cpp") == 0) {
				c->cflags = lua_toboolean(L, -1) ? DTRACE_C_CPP : 0;
			} else if (strcmp(k, "options") == 0) {
				if (!lua_istable(L, -1))
					luaL_error(L, "options must be a table");
				lua_pushnil(L);
				while (lua_next(L, -2) != 0) {
					if (lua_type(L, -2) != LUA_TSTRING)
						luaL_error(L, "option names are strings");
					if (strcmp(lua_tostring(L, -2), "quiet") == 0)
						quiet = lua_toboolean(L, -1);
					else
						setopt(L, c, lua_tostring(L, -2), -1);
					lua_pop(L, 1);
				}
			} else {
				return luaL_error(L, "unknown field %s (options, cpp)",
						  luaL_tolstring(L, -2, NULL));
			}
			lua_pop(L, 1);
		}
	}
	if (quiet && dtrace_setopt(c->dtp, "quiet", NULL) != 0)
		return hdl_error(L, c, "dtrace.consumer");
	lua_settop(L, 2);
	return 1;
}

static int c_setopt(lua_State *L)
{
	consumer_t *c = checkopen(L);

	luaL_checkany(L, 3);
	if (c->started)
		return luaL_error(L, "setopt: tracing has started");
	setopt(L, c, luaL_checkstring(L, 2), 3);
	return 0;
}

/* c:spawn{"prog", "arg", ...} or c:spawn("prog", "arg", ...): stopped until go. */
static int c_spawn(lua_State *L)
{
	consumer_t *c = checkopen(L);
	bool list = lua_istable(L, 2);
	int n = list ? (int)lua_rawlen(L, 2) : lua_gettop(L) - 1, pid;
	const char **argv;

	if (n < 1)
		return luaL_argerror(L, 2, "a command (program and arguments) expected");
	if (c->started)
		return luaL_error(L, "spawn: tracing has started");
	luaL_checkstack(L, n + 2, "too many arguments");
	argv = lua_newuserdatauv(L, ((size_t)n + 1) * sizeof(*argv), 0);
	for (int i = 0; i < n; i++) {
		if (list)
			lua_rawgeti(L, 2, i + 1);
		else
			lua_pushvalue(L, i + 2);
		if ((argv[i] = lua_tostring(L, -1)) == NULL) /* kept on the stack */
			return luaL_error(L, "spawn: argument %d is a %s, not a string", i + 1,
					  luaL_typename(L, -1));
	}
	argv[n] = NULL;
	if ((pid = dtrace_proc_create(c->dtp, (char *const *)argv)) < 0)
		return hdl_error(L, c, lua_pushfstring(L, "spawn %s", argv[0]));
	c->spawned = pid;
	lua_pushinteger(L, pid);
	return 1;
}

/* c:grab(pid): stopped until go; released (not killed) at close. */
static int c_grab(lua_State *L)
{
	consumer_t *c = checkopen(L);
	lua_Integer pid = luaL_checkinteger(L, 2);

	luaL_argcheck(L, pid > 0 && pid <= 0x7fffffff, 2, "a process ID expected");
	if (c->started)
		return luaL_error(L, "grab: tracing has started");
	if (dtrace_proc_grab(c->dtp, (int)pid) != 0)
		return hdl_error(L, c, "grab");
	return 0;
}

/* A compile error: "file:line:column: TAG: message", then the line and a caret. */
static int compile_error(lua_State *L, consumer_t *c)
{
	int err = dtrace_errno(c->dtp);
	const dtrace_diag_t *dg = err == EDT_COMPILER ? dtrace_lastdiag(c->dtp) : NULL;
	luaL_Buffer b;

	if (dg == NULL)
		return hdl_error(L, c, "compile");
	luaL_buffinit(L, &b);
	lua_pushfstring(L, "%s:%d:%d: %s: %s", dg->dtdg_file, (int)dg->dtdg_line,
			(int)dg->dtdg_column, dg->dtdg_tag, dg->dtdg_message);
	luaL_addvalue(&b);
	if (dg->dtdg_source != NULL && dg->dtdg_source[0] != '\0') {
		luaL_addstring(&b, "\n    ");
		luaL_addstring(&b, dg->dtdg_source);
		luaL_addstring(&b, "\n    ");
		for (unsigned i = 0; i + 1 < dg->dtdg_column && dg->dtdg_source[i] != '\0'; i++)
			luaL_addchar(&b, dg->dtdg_source[i] == '\t' ? '\t' : ' ');
		luaL_addchar(&b, '^');
	}
	luaL_pushresult(&b);
	return lua_error(L);
}

/* c:compile(src, ...) / c:compile_file(path, ...): $1.. are the extra arguments. */
static int compile(lua_State *L, bool file)
{
	consumer_t *c = checkopen(L);
	const char *src = luaL_checkstring(L, 2);
	int top = lua_gettop(L), argc = top - 1;
	dtrace_proginfo_t info;
	dtrace_prog_t *prog;
	char **argv;
	FILE *fp;

	if (c->started)
		return luaL_error(L, "compile: tracing has started");
	luaL_checkstack(L, argc + 2, "too many arguments");
	argv = lua_newuserdatauv(L, ((size_t)argc + 1) * sizeof(*argv), 0);
	argv[0] = (char *)(file ? src : "<string>");
	for (int i = 3; i <= top; i++)
		argv[i - 2] = (char *)luaL_tolstring(L, i, NULL); /* kept on the stack */
	argv[argc] = NULL;
	if (!file) {
		prog = dtrace_program_strcompile(c->dtp, src, argv[0], c->cflags, argc, argv);
	} else {
		if ((fp = fopen(src, "re")) == NULL)
			return luaL_error(L, "compile_file: cannot open %s: %s", src,
					  strerror(errno));
		prog = dtrace_program_fcompile(c->dtp, fp, src, c->cflags, argc, argv);
		fclose(fp);
	}
	if (prog == NULL)
		return compile_error(L, c);
	if (dtrace_program_exec(c->dtp, prog, &info) != 0)
		return hdl_error(L, c, "enable");
	lua_pushinteger(L, info.dpi_matches);
	return 1;
}

static int c_compile(lua_State *L)
{
	return compile(L, false);
}

static int c_compile_file(lua_State *L)
{
	return compile(L, true);
}

static void start(lua_State *L, consumer_t *c)
{
	int64_t quiet = 0;

	if (c->started)
		luaL_error(L, "go: tracing has started");
	if (dtrace_go(c->dtp) != 0)
		hdl_error(L, c, "go");
	c->quiet = dtrace_getopt(c->dtp, "quiet", &quiet) == 0 && quiet == 1;
	c->started = true;
	c->first = true;
	if (dtrace_proc_target(c->dtp) > 0 && dtrace_proc_continue(c->dtp) != 0)
		hdl_error(L, c, "go");
}

static int c_go(lua_State *L)
{
	start(L, checkopen(L));
	return 0;
}

/* Called between two waits: Lua runs a pending hook here (lua.c's SIGINT handler sets one). */
static int safepoint(lua_State *L)
{
	(void)L;
	return 0;
}

/*
 * The queue: what the callbacks of dtrace_consume() and
 * dtrace_aggregate_walk() receive is copied into a C buffer as a compact
 * encoding of the Lua values to make, and turned into Lua values outside
 * libdtrace's frames (a Lua error must not unwind through them).  Values:
 *   'N' nil, 'I' int64, 'F' double, 'S' uint64 length and bytes,
 *   'T' uint32 array and record size hints, then entries until 'E': 'A' a
 *   value (the next array index) or 'K' a NUL-terminated name and a value.
 */
static void q_put(consumer_t *c, lu_buf_t *q, const void *p, size_t n)
{
	if (!c->oom && lu_buf_add(q, p, n) != 0)
		c->oom = true;
}

static void q_tag(consumer_t *c, lu_buf_t *q, char tag)
{
	q_put(c, q, &tag, 1);
}

static void q_int(consumer_t *c, lu_buf_t *q, int64_t v)
{
	q_tag(c, q, 'I');
	q_put(c, q, &v, sizeof(v));
}

static void q_float(consumer_t *c, lu_buf_t *q, double v)
{
	q_tag(c, q, 'F');
	q_put(c, q, &v, sizeof(v));
}

static void q_str(consumer_t *c, lu_buf_t *q, const void *s, size_t n)
{
	uint64_t len = n;

	q_tag(c, q, 'S');
	q_put(c, q, &len, sizeof(len));
	q_put(c, q, s, n);
}

static void q_table(consumer_t *c, lu_buf_t *q, uint32_t narr, uint32_t nrec)
{
	q_tag(c, q, 'T');
	q_put(c, q, &narr, sizeof(narr));
	q_put(c, q, &nrec, sizeof(nrec));
}

/* A record is whole in pend (one written to side waits for its firing's end). */
static void q_done(consumer_t *c)
{
	if (!c->oom && !c->in_probe)
		c->good = c->pend.len;
}

/* The next value is the field name of the table being written. */
static void q_key(consumer_t *c, lu_buf_t *q, const char *name)
{
	q_tag(c, q, 'K');
	q_put(c, q, name, strlen(name) + 1);
}

static void q_kstr(consumer_t *c, lu_buf_t *q, const char *name, const char *s)
{
	q_key(c, q, name);
	q_str(c, q, s, strlen(s));
}

static void q_kint(consumer_t *c, lu_buf_t *q, const char *name, int64_t v)
{
	q_key(c, q, name);
	q_int(c, q, v);
}

/* An unsigned value: an integer up to 2^63-1, beyond it a float (as the JSON decoder gave). */
static void q_uint(consumer_t *c, lu_buf_t *q, uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		q_int(c, q, (int64_t)v);
	else
		q_float(c, q, (double)v);
}

/* The module, symbol and offset known of an address (docs/json.md's fields). */
static void q_where(consumer_t *c, lu_buf_t *q, const char *mod, const char *sym, uint64_t off)
{
	if (mod != NULL)
		q_kstr(c, q, "module", mod);
	if (sym != NULL) {
		q_kstr(c, q, "symbol", sym);
		q_key(c, q, "offset");
		q_uint(c, q, off);
	}
}

/*
 * A record's value, as the JSON of docs/json.md decoded to Lua gave it:
 * integers by their sign, a float (nil when not finite; an integer when
 * it is one, as %.17g wrote it), strings, bytes an array of the byte
 * values (tracemem()'s a string), symbols and stacks tables.
 */
static void q_value(consumer_t *c, lu_buf_t *q, const dtrace_record_t *r)
{
	switch (r->dtr_kind) {
	case DTRACE_REC_INT:
		if (r->dtr_signed)
			q_int(c, q, r->dtr_int);
		else
			q_uint(c, q, r->dtr_uint);
		return;
	case DTRACE_REC_FLOAT:
		if (!isfinite(r->dtr_float))
			q_tag(c, q, 'N');
		else if (r->dtr_float == floor(r->dtr_float) && fabs(r->dtr_float) < 1e17)
			q_int(c, q, (int64_t)r->dtr_float);
		else
			q_float(c, q, r->dtr_float);
		return;
	case DTRACE_REC_STRING:
	case DTRACE_REC_PRINTF: q_str(c, q, r->dtr_str, r->dtr_len); return;
	case DTRACE_REC_BYTES:
		if (strcmp(r->dtr_action, "tracemem") == 0) {
			q_str(c, q, r->dtr_bytes, r->dtr_len);
		} else if (strcmp(r->dtr_action, "print") == 0) {
			/* print(): its type, the pointer and the bytes it points to */
			q_table(c, q, 0, 3);
			q_kstr(c, q, "type", r->dtr_type);
			q_key(c, q, "address");
			q_uint(c, q, r->dtr_uint);
			q_key(c, q, "bytes");
			q_str(c, q, r->dtr_bytes, r->dtr_len);
			q_tag(c, q, 'E');
		} else {
			q_table(c, q, (uint32_t)r->dtr_len, 0);
			for (size_t i = 0; i < r->dtr_len; i++) {
				q_tag(c, q, 'A');
				q_int(c, q, ((const unsigned char *)r->dtr_bytes)[i]);
			}
			q_tag(c, q, 'E');
		}
		return;
	case DTRACE_REC_SYM:
		q_table(c, q, 0, 6);
		if (strcmp(r->dtr_type, "_symaddr_t") != 0) /* sym(), func(), mod(): no pid */
			q_kint(c, q, "pid", r->dtr_pid);
		q_key(c, q, "address");
		q_uint(c, q, r->dtr_uint);
		q_where(c, q, r->dtr_module, r->dtr_symbol, r->dtr_offset);
		q_kstr(c, q, "name", r->dtr_str);
		q_tag(c, q, 'E');
		return;
	case DTRACE_REC_STACK:
		q_table(c, q, 0, 2);
		if (r->dtr_pid != 0) /* stack(): the kernel's, no pid */
			q_kint(c, q, "pid", r->dtr_pid);
		q_key(c, q, "frames");
		q_table(c, q, r->dtr_nframes, 0);
		for (unsigned i = 0; i < r->dtr_nframes; i++) {
			q_tag(c, q, 'A');
			q_table(c, q, 0, 5);
			q_key(c, q, "address");
			q_uint(c, q, r->dtr_pcs[i]);
			q_where(c, q, r->dtr_fmodules[i], r->dtr_fsymbols[i], r->dtr_foffsets[i]);
			q_kstr(c, q, "name", r->dtr_frames[i]);
			q_tag(c, q, 'E');
		}
		q_tag(c, q, 'E');
		q_tag(c, q, 'E');
		return;
	default: q_tag(c, q, 'N'); return;
	}
}

static const char *const agg_fns[] = {
	[DTRACE_AGG_COUNT] = "count",
	[DTRACE_AGG_SUM] = "sum",
	[DTRACE_AGG_AVG] = "avg",
	[DTRACE_AGG_MIN] = "min",
	[DTRACE_AGG_MAX] = "max",
	[DTRACE_AGG_STDDEV] = "stddev",
	[DTRACE_AGG_QUANTIZE] = "quantize",
	[DTRACE_AGG_LQUANTIZE] = "lquantize",
	[DTRACE_AGG_LLQUANTIZE] = "llquantize",
};

typedef struct {
	consumer_t *c;
	lu_buf_t *q;
	bool typed; /* with type = "aggregation" (in the records) */
} aggwalk_t;

/*
 * An aggregation entry: {type = "aggregation", name =, ["function"] =,
 * keys = {...}, value =}, value for quantizations their non-empty buckets
 * {min =, max =, count =} (lquantize's and llquantize's open ends absent).
 */
static int q_aggentry(const dtrace_aggdata_t *a, void *arg)
{
	aggwalk_t *w = arg;
	consumer_t *c = w->c;
	lu_buf_t *q = w->q;
	unsigned kind = (unsigned)a->dtada_kind;

	q_table(c, q, 0, 5);
	if (w->typed)
		q_kstr(c, q, "type", "aggregation");
	q_kstr(c, q, "name", a->dtada_name);
	q_kstr(c, q, "function", kind < sizeof(agg_fns) / sizeof(agg_fns[0]) ? agg_fns[kind] : "");
	q_key(c, q, "keys");
	q_table(c, q, a->dtada_nkeys, 0);
	for (unsigned k = 0; k < a->dtada_nkeys; k++) {
		q_tag(c, q, 'A');
		q_value(c, q, &a->dtada_keys[k]);
	}
	q_tag(c, q, 'E');
	q_key(c, q, "value");
	if (a->dtada_kind < DTRACE_AGG_QUANTIZE) {
		q_int(c, q, a->dtada_value);
	} else {
		bool open = a->dtada_kind != DTRACE_AGG_QUANTIZE; /* quantize's ends are values */

		q_table(c, q, a->dtada_nbuckets, 0);
		for (unsigned i = 0; i < a->dtada_nbuckets; i++) {
			const dtrace_aggbucket_t *b = &a->dtada_buckets[i];

			if (b->dtab_count == 0)
				continue;
			q_tag(c, q, 'A');
			q_table(c, q, 0, 3);
			if (!open || b->dtab_lo != INT64_MIN)
				q_kint(c, q, "min", b->dtab_lo);
			if (!open || b->dtab_hi != INT64_MAX)
				q_kint(c, q, "max", b->dtab_hi);
			q_kint(c, q, "count", b->dtab_count);
			q_tag(c, q, 'E');
		}
		q_tag(c, q, 'E');
	}
	q_tag(c, q, 'E');
	return c->oom ? -1 : 0;
}

/* "type", "id" and the probe's four names (and "cpu" when cpu >= 0). */
static void q_probe(consumer_t *c, lu_buf_t *q, const char *type, int cpu,
		    const dtrace_probedesc_t *pd)
{
	q_kstr(c, q, "type", type);
	if (cpu >= 0)
		q_kint(c, q, "cpu", cpu);
	q_kint(c, q, "id", pd->dtpd_id);
	q_kstr(c, q, "provider", pd->dtpd_provider);
	q_kstr(c, q, "module", pd->dtpd_mod);
	q_kstr(c, q, "function", pd->dtpd_func);
	q_kstr(c, q, "name", pd->dtpd_name);
}

/* A firing: {type = "probe", cpu =, id =, provider =, ..., data = {...}} (data still open). */
static int on_probe(const dtrace_probedata_t *pd, void *arg)
{
	consumer_t *c = arg;

	c->probe_at = c->pend.len;
	c->ndata = 0;
	c->in_probe = true;
	q_table(c, &c->pend, 0, 8);
	q_probe(c, &c->pend, "probe", pd->dtpda_cpu, pd->dtpda_pdesc);
	q_key(c, &c->pend, "data");
	q_table(c, &c->pend, pd->dtpda_nrecs, 0);
	return c->oom ? DTRACE_CONSUME_ABORT : DTRACE_CONSUME_THIS;
}

/*
 * A record: trace(), tracemem(), print() and printf() values go to data;
 * printa()'s entries follow the probe's record (as oformat=json writes
 * them); the end of the firing closes the record, dropped under quiet
 * when it holds no data (as oformat=json's).
 */
static int on_rec(const dtrace_probedata_t *pd, const dtrace_record_t *r, void *arg)
{
	consumer_t *c = arg;
	const char *a;

	(void)pd;
	if (r == NULL) {
		q_tag(c, &c->pend, 'E');
		q_tag(c, &c->pend, 'E');
		if (c->quiet && c->ndata == 0)
			c->pend.len = c->probe_at;
		c->in_probe = false;
		q_put(c, &c->pend, c->side.b, c->side.len);
		c->side.len = 0;
		q_done(c);
		return c->oom ? DTRACE_CONSUME_ABORT : DTRACE_CONSUME_THIS;
	}
	a = r->dtr_action;
	if (r->dtr_kind == DTRACE_REC_PRINTA) {
		aggwalk_t w = { c, &c->side, true };

		for (unsigned i = 0; i < r->dtr_naggs; i++) {
			dtrace_aggwalk_opts_t o = { .sz = sizeof(o),
						    .name = r->dtr_aggnames[i],
						    .flags = DTRACE_AGGWALK_MARK };

			if (dtrace_aggregate_walk(c->dtp, &o, q_aggentry, &w) != 0 && !c->oom)
				c->walkerr = true;
		}
	} else if (strcmp(a, "trace") == 0 || strcmp(a, "tracemem") == 0 ||
		   strcmp(a, "print") == 0 || strcmp(a, "printf") == 0) {
		q_tag(c, &c->pend, 'A');
		q_value(c, &c->pend, r);
		c->ndata++;
	}
	return c->oom ? DTRACE_CONSUME_ABORT : DTRACE_CONSUME_THIS;
}

/* Where an error or drop record goes: after the firing being written, if one is. */
static lu_buf_t *q_out(consumer_t *c)
{
	return c->in_probe ? &c->side : &c->pend;
}

/* A fault: its message, and {type = "error", ...} unless the library's own (as oformat=json). */
static void on_errdata(const dtrace_errdata_t *e, void *arg)
{
	consumer_t *c = arg;
	lu_buf_t *q = q_out(c);

	on_message(e->dteda_msg, c);
	if (e->dteda_action < 0)
		return;
	q_table(c, q, 0, 12);
	q_kint(c, q, "epid", e->dteda_epid);
	q_probe(c, q, "error", -1, e->dteda_pdesc);
	q_kstr(c, q, "fault", e->dteda_fault);
	if (strcmp(e->dteda_fault, "invalid address") == 0) {
		q_key(c, q, "address");
		q_uint(c, q, e->dteda_addr);
	}
	q_kint(c, q, "action", e->dteda_action);
	q_kint(c, q, "offset", e->dteda_offset);
	q_tag(c, q, 'E');
	q_done(c);
}

/* Drops: the message, and {type = "drop", kind =, count =, cpu =} (oformat=json has no fponly). */
static void on_dropdata(const dtrace_dropdata_t *d, void *arg)
{
	consumer_t *c = arg;
	lu_buf_t *q = q_out(c);

	on_message(d->dtdda_msg, c);
	if (strcmp(d->dtdda_kind, "fponly") == 0)
		return;
	q_table(c, q, 0, 4);
	q_kstr(c, q, "type", "drop");
	q_kstr(c, q, "kind", d->dtdda_kind);
	q_key(c, q, "count");
	q_uint(c, q, d->dtdda_drops);
	if (d->dtdda_cpu >= 0)
		q_kint(c, q, "cpu", d->dtdda_cpu);
	q_tag(c, q, 'E');
	q_done(c);
}

/* Push the value encoded at *p (< end: the queue is well formed) and move past it. */
static void q_push(lua_State *L, const char **p)
{
	const char *s = *p;
	int64_t i;
	double d;
	uint64_t n;
	uint32_t narr, nrec;
	lua_Integer k = 0;

	switch (*s++) {
	case 'I':
		memcpy(&i, s, sizeof(i));
		lua_pushinteger(L, (lua_Integer)i);
		s += sizeof(i);
		break;
	case 'F':
		memcpy(&d, s, sizeof(d));
		lua_pushnumber(L, (lua_Number)d);
		s += sizeof(d);
		break;
	case 'S':
		memcpy(&n, s, sizeof(n));
		s += sizeof(n);
		lua_pushlstring(L, s, (size_t)n);
		s += n;
		break;
	case 'T':
		memcpy(&narr, s, sizeof(narr));
		memcpy(&nrec, s + sizeof(narr), sizeof(nrec));
		s += sizeof(narr) + sizeof(nrec);
		luaL_checkstack(L, 3, "records nested too deep");
		lua_createtable(L, narr > 1000000 ? 1000000 : (int)narr, (int)nrec);
		while (*s != 'E') {
			if (*s++ == 'A') {
				q_push(L, &s);
				lua_rawseti(L, -2, ++k);
			} else {
				const char *name = s;

				s += strlen(s) + 1;
				q_push(L, &s);
				lua_setfield(L, -2, name);
			}
		}
		s++;
		break;
	default: lua_pushnil(L); break;
	}
	*p = s;
}

/* Move *p past the value encoded there. */
static void q_skip(const char **p)
{
	const char *s = *p;
	uint64_t n;

	switch (*s++) {
	case 'I':
	case 'F': s += 8; break;
	case 'S':
		memcpy(&n, s, sizeof(n));
		s += sizeof(n) + n;
		break;
	case 'T':
		s += 2 * sizeof(uint32_t);
		while (*s != 'E') {
			if (*s++ == 'K')
				s += strlen(s) + 1;
			q_skip(&s);
		}
		s++;
		break;
	default: break;
	}
	*p = s;
}

/*
 * After libdtrace called back: out of memory there is a Lua error, the
 * queues cut back to their last whole record; a printa() walk that failed
 * is libdtrace's error (the records stay).
 */
static void q_check(lua_State *L, consumer_t *c, const char *what)
{
	bool oom = c->oom, walkerr = c->walkerr;

	c->oom = c->walkerr = c->in_probe = false;
	c->side.len = 0;
	if (oom) {
		c->pend.len = c->good;
		c->aggq.len = 0;
		luaL_error(L, "%s: out of memory", what);
	}
	if (walkerr)
		hdl_error(L, c, what);
}

/* One turn of dtrace(1)'s loop: wait, notice the target's exit, consume into pend. */
static void pump(lua_State *L, consumer_t *c)
{
	dtrace_consume_opts_t o = { .sz = sizeof(o), .probe = on_probe, .rec = on_rec, .arg = c };
	dtrace_workstatus_t ws;

	if (!c->first)
		dtrace_sleep(c->dtp);
	c->first = false;
	if (!c->reported && dtrace_proc_target(c->dtp) > 0 && dtrace_proc_exited(c->dtp, NULL))
		c->reported = true;
	if (c->reported)
		(void)dtrace_stop(c->dtp); /* once; the next consume drains END */
	ws = dtrace_consume(c->dtp, &o);
	q_check(L, c, "records");
	if (ws == DTRACE_WORKSTATUS_DONE)
		c->done = true;
	else if (ws == DTRACE_WORKSTATUS_ERROR)
		hdl_error(L, c, "records");
}

/* Push the next record; 0 (nothing pushed) when tracing is over and all is read. */
static int next_record(lua_State *L, consumer_t *c)
{
	for (;;) {
		if (c->pos < c->good) {
			const char *s = c->pend.b + c->pos, *e = s;

			/*
			 * consumed before it becomes a Lua value: an error cannot
			 * return the same record again; s stays readable, as
			 * nothing writes to pend now (beyond good: nothing whole)
			 */
			q_skip(&e);
			c->pos += (size_t)(e - s);
			if (c->pos >= c->good)
				c->pos = c->good = c->pend.len = 0;
			q_push(L, &s);
			return 1;
		}
		if (c->done)
			return 0;
		pump(L, c);
		lua_pushcfunction(L, safepoint);
		lua_call(L, 0, 0);
	}
}

static int records_next(lua_State *L)
{
	consumer_t *c = checkopen(L);

	if (!c->started)
		start(L, c);
	if (!next_record(L, c))
		lua_pushnil(L);
	return 1;
}

/* for rec in c:records() do ... end: starts tracing if go() was not called. */
static int c_records(lua_State *L)
{
	(void)checkopen(L);
	lua_pushcfunction(L, records_next);
	lua_pushvalue(L, 1);
	return 2;
}

static void push_exit(lua_State *L, consumer_t *c)
{
	lua_pushinteger(L, dtrace_status(c->dtp) == DTRACE_STATUS_EXITED ? dtrace_exit_value(c->dtp)
									 : 0);
}

/* c:run(f): f(rec) for each record until tracing is over; returns exit()'s value (or 0). */
static int c_run(lua_State *L)
{
	consumer_t *c = checkopen(L);

	if (lua_type(L, 2) != LUA_TFUNCTION) {
		if (luaL_getmetafield(L, 2, "__call") == LUA_TNIL)
			return luaL_typeerror(L, 2, "callable");
		lua_pop(L, 1);
	}
	lua_settop(L, 2);
	if (!c->started)
		start(L, c);
	while (c->dtp != NULL && next_record(L, c)) { /* f may close the consumer */
		lua_pushvalue(L, 2);
		lua_insert(L, -2);
		lua_call(L, 1, 0);
	}
	if (c->dtp == NULL)
		return 0;
	push_exit(L, c);
	return 1;
}

/* c:stop(): fire END now; records() and run() then drain what is left and end. */
static int c_stop(lua_State *L)
{
	consumer_t *c = checkopen(L);

	if (!c->started)
		return 0;
	c->reported = true;
	if (dtrace_stop(c->dtp) != 0)
		return hdl_error(L, c, "stop");
	return 0;
}

/* Replace the array of byte values at -1 (a memory key) by a string. */
static void bytes_to_string(lua_State *L)
{
	luaL_Buffer b;
	lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
	int t = lua_gettop(L);

	luaL_buffinit(L, &b);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, t, i);
		luaL_addchar(&b, (char)lua_tointeger(L, -1));
		lua_pop(L, 1);
	}
	luaL_pushresult(&b);
	lua_replace(L, t);
}

/* t[k1]...[kn] = the value at v, for the keys in the list at keys; subtables made as needed. */
static void tree_put(lua_State *L, int keys, lua_Integer nkeys, int t, int v)
{
	luaL_checkstack(L, (int)nkeys + 4, "too many aggregation keys");
	for (lua_Integer i = 1; i <= nkeys; i++) {
		lua_rawgeti(L, keys, i);
		if (lua_istable(L, -1)) /* a memory key: its bytes */
			bytes_to_string(L);
		if (i == nkeys) {
			lua_pushvalue(L, v);
			lua_rawset(L, t);
			return;
		}
		lua_pushvalue(L, -1);
		if (lua_rawget(L, t) != LUA_TTABLE) {
			lua_pop(L, 1);
			lua_newtable(L);
			lua_pushvalue(L, -2);
			lua_pushvalue(L, -2);
			lua_rawset(L, t); /* t[k] = {} */
		}
		lua_replace(L, -2);
		t = lua_gettop(L);
	}
}

/*
 * c:aggregations([how]): every aggregation's entries now (printed by printa() or not).
 *   "tree" (default): aggs.name[k1]...[kn] = value; no keys: aggs.name = value
 *   "list": { {name=, ["function"]=, keys={...}, value=}, ... } in dtrace(1)'s order
 * value is an integer, or for quantizations a list of {min=, max=, count=}.
 */
static int c_aggregations(lua_State *L)
{
	static const char *const hows[] = { "tree", "list", NULL };
	consumer_t *c = checkopen(L);
	int list = luaL_checkoption(L, 2, "tree", hows);
	lua_Integer n = 0;
	aggwalk_t w = { c, &c->aggq, false };
	int res;

	if (!c->started)
		return luaL_error(L, "aggregations: tracing has not started");
	c->aggq.len = 0;
	res = dtrace_aggregate_walk(c->dtp, NULL, q_aggentry, &w);
	q_check(L, c, "aggregations");
	if (res != 0)
		return hdl_error(L, c, "aggregations");
	lua_settop(L, 1);
	lua_newtable(L); /* 2: the result */
	for (const char *s = c->aggq.b, *end = s + c->aggq.len; s < end;) {
		q_push(L, &s); /* 3 */
		if (list) {
			lua_rawseti(L, 2, ++n);
			continue;
		}
		lua_getfield(L, 3, "name");  /* 4 */
		lua_getfield(L, 3, "keys");  /* 5 */
		lua_getfield(L, 3, "value"); /* 6 */
		if (!lua_istable(L, 5) || lua_rawlen(L, 5) == 0) {
			lua_pushvalue(L, 4);
			lua_pushvalue(L, 6);
			lua_rawset(L, 2);
		} else {
			lua_pushvalue(L, 4);
			if (lua_rawget(L, 2) != LUA_TTABLE) { /* 7: aggs[name] */
				lua_pop(L, 1);
				lua_newtable(L);
				lua_pushvalue(L, 4);
				lua_pushvalue(L, -2);
				lua_rawset(L, 2);
			}
			tree_put(L, 5, (lua_Integer)lua_rawlen(L, 5), 7, 6);
		}
		lua_settop(L, 2);
	}
	c->aggq.len = 0;
	return 1;
}

/* c:messages(): the fault and drop messages since the last call, oldest first. */
static int c_messages(lua_State *L)
{
	consumer_t *c = checkconsumer(L);
	lua_Integer n = 0;

	lua_newtable(L);
	for (size_t i = 0; i < c->msgs.len;) {
		const char *s = c->msgs.b + i, *nl = memchr(s, '\n', c->msgs.len - i);

		lua_pushlstring(L, s, (size_t)(nl - s));
		lua_rawseti(L, -2, ++n);
		i += (size_t)(nl - s) + 1;
	}
	if (c->lost > 0) {
		lua_pushfstring(L, "(%d more messages not kept)", (int)c->lost);
		lua_rawseti(L, -2, ++n);
	}
	c->msgs.len = 0;
	c->nmsgs = c->lost = 0;
	return 1;
}

/* c:status(): "none", "okay", "exited" (exit() was called) or "stopped"; exit()'s value. */
static int c_status(lua_State *L)
{
	static const char *const names[] = { "none", "okay", "exited", "stopped" };
	consumer_t *c = checkopen(L);
	int st = dtrace_status(c->dtp);

	lua_pushstring(L, st >= 0 && st <= 3 ? names[st] : "unknown");
	push_exit(L, c);
	return 2;
}

static int c_pid(lua_State *L)
{
	consumer_t *c = checkopen(L);

	if (dtrace_proc_target(c->dtp) <= 0)
		return 0;
	lua_pushinteger(L, dtrace_proc_target(c->dtp));
	return 1;
}

/* close, __gc, __close: a spawned process that still runs is killed, a grabbed one released. */
static int c_close(lua_State *L)
{
	consumer_t *c = checkconsumer(L);
	int kill_pid = 0;

	if (c->dtp != NULL) {
		if (c->spawned > 0 && !dtrace_proc_exited(c->dtp, NULL) &&
		    kill(c->spawned, SIGKILL) == 0)
			kill_pid = c->spawned;
		dtrace_close(c->dtp);
		c->dtp = NULL;
		while (kill_pid > 0 && waitpid(kill_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	lu_buf_free(&c->pend);
	lu_buf_free(&c->msgs);
	lu_buf_free(&c->side);
	lu_buf_free(&c->aggq);
	c->pos = c->good = 0;
	return 0;
}

static int c_tostring(lua_State *L)
{
	consumer_t *c = checkconsumer(L);

	lua_pushfstring(L, "dtrace.Consumer(%s)",
			c->dtp == NULL ? "closed"
			: c->done      ? "done"
			: c->started   ? "tracing"
				       : "not started");
	return 1;
}

void lu_consumer_register(lua_State *L)
{
	static const luaL_Reg fns[] = {
		{ "setopt", c_setopt },
		{ "spawn", c_spawn },
		{ "grab", c_grab },
		{ "compile", c_compile },
		{ "compile_file", c_compile_file },
		{ "go", c_go },
		{ "records", c_records },
		{ "run", c_run },
		{ "stop", c_stop },
		{ "aggregations", c_aggregations },
		{ "messages", c_messages },
		{ "status", c_status },
		{ "pid", c_pid },
		{ "close", c_close },
		{ NULL, NULL },
	};

	luaL_newmetatable(L, CONSUMER_MT);
	luaL_newlib(L, fns);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, c_close);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, c_close);
	lua_setfield(L, -2, "__close");
	lua_pushcfunction(L, c_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushliteral(L, CONSUMER_MT);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	lua_pushcfunction(L, l_consumer);
	lua_setfield(L, -2, "consumer");
}
