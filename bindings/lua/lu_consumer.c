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

#include "bc_records.h"
#include "lu_impl.h"

#define CONSUMER_MT "dtrace.Consumer"
#define MAXMSGS	    1000 /* messages kept between two c:messages() */

typedef struct {
	dtrace_hdl_t *dtp; /* NULL once closed */
	unsigned cflags;
	int spawned; /* the process we created (killed at close if it runs), or 0 */
	bool started, done, reported, first;
	bool quiet;	/* the quiet option, read at go */
	bc_sink_t sink; /* records not returned yet, from pos (bindings/common/bc_records.h) */
	size_t pos;	/* the next record's offset in the sink's queue */
	size_t scanned; /* the queue's entries before it had their messages taken */
	lu_buf_t msgs;	/* messages, each ending in '\n' */
	unsigned nmsgs, lost;
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
	bc_sink_init(&c->sink, c->dtp, BC_SINK_PRINTA);
	if (bc_sink_handlers(&c->sink) != 0)
		return hdl_error(L, c, "dtrace.consumer");
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
 * dtrace_aggregate_walk() receive is copied into the bindings' shared
 * records queue (bindings/common/bc_records.c) and turned into Lua values
 * outside libdtrace's frames (a Lua error must not unwind through them).
 */

/* The firing's values that are data here: trace(), tracemem(), print(), printf(). */
static bool is_data(const char *a)
{
	return strcmp(a, "trace") == 0 || strcmp(a, "tracemem") == 0 || strcmp(a, "print") == 0 ||
	       strcmp(a, "printf") == 0;
}

/* An unsigned value: an integer up to 2^63-1, beyond it a float (as the JSON decoder gave). */
static void push_uint(lua_State *L, uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		lua_pushinteger(L, (lua_Integer)v);
	else
		lua_pushnumber(L, (lua_Number)v);
}

static void set_str(lua_State *L, const char *name, const char *s)
{
	lua_pushstring(L, s);
	lua_setfield(L, -2, name);
}

static void set_int(lua_State *L, const char *name, int64_t v)
{
	lua_pushinteger(L, (lua_Integer)v);
	lua_setfield(L, -2, name);
}

static void set_uint(lua_State *L, const char *name, uint64_t v)
{
	push_uint(L, v);
	lua_setfield(L, -2, name);
}

/* The address and the module, symbol and offset known of it (docs/json.md's fields), name. */
static void set_place(lua_State *L, uint64_t addr, const char *mod, const char *sym, uint64_t off,
		      const char *name)
{
	set_uint(L, "address", addr);
	if (mod != NULL)
		set_str(L, "module", mod);
	if (sym != NULL) {
		set_str(L, "symbol", sym);
		set_uint(L, "offset", off);
	}
	set_str(L, "name", name != NULL ? name : "");
}

/*
 * A record's value, as the JSON of docs/json.md decoded to Lua gave it:
 * integers by their sign, a float (nil when not finite; an integer when
 * it is one, as %.17g wrote it), strings, bytes an array of the byte
 * values (tracemem()'s a string), symbols and stacks tables.
 */
static void push_value(lua_State *L, const bc_value_t *v)
{
	bc_reader_t sub = v->sub;
	bc_frame_t f;
	lua_Integer i = 0;

	luaL_checkstack(L, 4, "records nested too deep");
	switch (v->kind) {
	case DTRACE_REC_INT:
		if (v->is_signed)
			lua_pushinteger(L, (lua_Integer)v->i);
		else
			push_uint(L, v->u);
		return;
	case DTRACE_REC_FLOAT:
		if (!isfinite(v->f))
			lua_pushnil(L);
		else if (v->f == floor(v->f) && fabs(v->f) < 1e17)
			lua_pushinteger(L, (lua_Integer)v->f);
		else
			lua_pushnumber(L, (lua_Number)v->f);
		return;
	case DTRACE_REC_STRING:
	case DTRACE_REC_PRINTF: lua_pushlstring(L, v->str != NULL ? v->str : "", v->len); return;
	case DTRACE_REC_BYTES:
		if (strcmp(v->action, "tracemem") == 0) {
			lua_pushlstring(L, v->str, v->len);
		} else if (bc_is_print(v)) {
			/* print(): its type, the pointer and the bytes it points to */
			lua_createtable(L, 0, 3);
			set_str(L, "type", v->type);
			set_uint(L, "address", v->addr);
			lua_pushlstring(L, v->str, v->len);
			lua_setfield(L, -2, "bytes");
		} else {
			lua_createtable(L, v->len > 1000000 ? 1000000 : (int)v->len, 0);
			for (size_t k = 0; k < v->len; k++) {
				lua_pushinteger(L, ((const unsigned char *)v->str)[k]);
				lua_rawseti(L, -2, (lua_Integer)k + 1);
			}
		}
		return;
	case DTRACE_REC_SYM:
		lua_createtable(L, 0, 6);
		if (strcmp(v->type, "_symaddr_t") != 0) /* sym(), func(), mod(): no pid */
			set_int(L, "pid", v->pid);
		set_place(L, v->addr, v->module, v->symbol, v->offset, v->str);
		return;
	case DTRACE_REC_STACK:
		lua_createtable(L, 0, 2);
		if (v->pid != 0) /* stack(): the kernel's, no pid */
			set_int(L, "pid", v->pid);
		lua_createtable(L, (int)(v->n > 1000000 ? 1000000 : v->n), 0);
		while (bc_read_frame(&sub, &f) == 1) {
			lua_createtable(L, 0, 5);
			set_place(L, f.pc, f.module, f.symbol, f.offset, f.name);
			lua_rawseti(L, -2, ++i);
		}
		lua_setfield(L, -2, "frames");
		return;
	default: lua_pushnil(L); return;
	}
}

/*
 * An aggregation entry: {type = "aggregation", name =, ["function"] =,
 * keys = {...}, value =}, value for quantizations their non-empty buckets
 * {min =, max =, count =} (lquantize's and llquantize's open ends absent).
 */
static void push_agg(lua_State *L, bc_entry_t *e, bool typed)
{
	bool open = e->aggkind != DTRACE_AGG_QUANTIZE; /* quantize's ends are values */
	dtrace_aggbucket_t b;
	bc_value_t k;
	lua_Integer i = 0;

	luaL_checkstack(L, 6, "records nested too deep");
	lua_createtable(L, 0, 5);
	if (typed)
		set_str(L, "type", "aggregation");
	set_str(L, "name", e->aggname);
	set_str(L, "function", e->function_name);
	lua_createtable(L, (int)(e->nkeys > 1000000 ? 1000000 : e->nkeys), 0);
	while (bc_read_value(&e->keys, &k) == 1) {
		push_value(L, &k);
		lua_rawseti(L, -2, ++i);
	}
	lua_setfield(L, -2, "keys");
	if (e->aggkind < DTRACE_AGG_QUANTIZE) {
		set_int(L, "value", e->value);
		return;
	}
	lua_createtable(L, (int)(e->nbuckets > 1000000 ? 1000000 : e->nbuckets), 0);
	for (i = 0; bc_read_bucket(&e->buckets, &b) == 1;) {
		lua_createtable(L, 0, 3);
		if (!open || b.dtab_lo != INT64_MIN)
			set_int(L, "min", b.dtab_lo);
		if (!open || b.dtab_hi != INT64_MAX)
			set_int(L, "max", b.dtab_hi);
		set_int(L, "count", b.dtab_count);
		lua_rawseti(L, -2, ++i);
	}
	lua_setfield(L, -2, "value");
}

/* "type", "id" and the probe's four names (and "cpu" when cpu >= 0). */
static void set_probe(lua_State *L, const char *type, int cpu, const bc_entry_t *e)
{
	set_str(L, "type", type);
	if (cpu >= 0)
		set_int(L, "cpu", cpu);
	set_int(L, "id", e->id);
	set_str(L, "provider", e->provider);
	set_str(L, "module", e->module);
	set_str(L, "function", e->function);
	set_str(L, "name", e->name);
}

/*
 * Push the record of entry e and return 1, or 0 (nothing pushed) for an
 * entry that makes none: under quiet, a firing with no data (as
 * oformat=json's); the library's own action errors; fponly drops.
 *   a firing: {type = "probe", cpu =, id =, provider =, ..., data = {...}}
 *   printa()'s entries: as push_agg's, typed (they follow their firing)
 *   a fault: {type = "error", epid =, id =, ..., fault =, address =, action =, offset =}
 *   drops: {type = "drop", kind =, count =, cpu =}
 */
static int push_entry(lua_State *L, consumer_t *c, bc_entry_t *e)
{
	bc_reader_t recs;
	bc_value_t v;
	lua_Integer n = 0;

	switch (e->kind) {
	case BC_PROBE:
		if (c->quiet) {
			recs = e->recs;
			while (bc_read_value(&recs, &v) == 1 && !is_data(v.action))
				;
			if (recs.bad || v.action == NULL || !is_data(v.action))
				return 0;
		}
		luaL_checkstack(L, 6, "records nested too deep");
		lua_createtable(L, 0, 8);
		set_probe(L, "probe", e->cpu, e);
		lua_createtable(L, (int)(e->ndata > 1000000 ? 1000000 : e->ndata), 0);
		while (bc_read_value(&e->recs, &v) == 1) {
			if (!is_data(v.action))
				continue;
			push_value(L, &v);
			lua_rawseti(L, -2, ++n);
		}
		lua_setfield(L, -2, "data");
		return 1;
	case BC_AGG: push_agg(L, e, true); return 1;
	case BC_ERROR:
		if (e->action < 0)
			return 0;
		lua_createtable(L, 0, 12);
		set_int(L, "epid", e->epid);
		set_probe(L, "error", -1, e);
		set_str(L, "fault", e->fault);
		if (e->has_addr)
			set_uint(L, "address", e->addr);
		set_int(L, "action", e->action);
		set_int(L, "offset", e->offset);
		return 1;
	case BC_DROP:
		if (strcmp(e->dropkind, "fponly") == 0)
			return 0;
		lua_createtable(L, 0, 4);
		set_str(L, "type", "drop");
		set_str(L, "kind", e->dropkind);
		set_uint(L, "count", e->count);
		if (e->cpu >= 0)
			set_int(L, "cpu", e->cpu);
		return 1;
	}
	return 0;
}

/* The fault and drop messages of the entries queued since the last scan, for c:messages(). */
static void scan_messages(consumer_t *c)
{
	bc_reader_t r = bc_sink_reader(&c->sink);
	bc_entry_t e;

	if (r.p == NULL)
		return;
	r.p += c->scanned;
	while (bc_read_entry(&r, &e) == 1)
		if ((e.kind == BC_ERROR || e.kind == BC_DROP) && e.msg != NULL)
			on_message(e.msg, c);
	c->scanned = (size_t)(r.p - c->sink.q.buf);
}

/*
 * After libdtrace called back: out of memory there is a Lua error (the
 * queue keeps its whole records); a printa() walk that failed is
 * libdtrace's error (the records stay).
 */
static void q_check(lua_State *L, consumer_t *c, const char *what)
{
	bool oom = bc_sink_failed(&c->sink);
	int walkerr = c->sink.walkerr;

	scan_messages(c);
	c->sink.q.failed = c->sink.side.failed = false;
	c->sink.walkerr = 0;
	if (oom)
		luaL_error(L, "%s: out of memory", what);
	if (walkerr != 0)
		luaL_error(L, "%s: %s", what, dtrace_errmsg(c->dtp, walkerr));
}

/* One turn of dtrace(1)'s loop: wait, notice the target's exit, consume into pend. */
static void pump(lua_State *L, consumer_t *c)
{
	dtrace_workstatus_t ws;

	if (!c->first)
		dtrace_sleep(c->dtp);
	c->first = false;
	if (!c->reported && dtrace_proc_target(c->dtp) > 0 && dtrace_proc_exited(c->dtp, NULL))
		c->reported = true;
	if (c->reported)
		(void)dtrace_stop(c->dtp); /* once; the next consume drains END */
	ws = bc_consume(&c->sink);
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
		bc_reader_t r = bc_sink_reader(&c->sink);
		bc_entry_t e;

		if (r.p != NULL && c->pos < c->sink.q.whole) {
			r.p += c->pos;
			/*
			 * consumed before it becomes a Lua value: an error cannot
			 * return the same record again; the entry stays readable,
			 * as nothing writes to the queue until the next pump
			 */
			if (bc_read_entry(&r, &e) != 1) {
				c->pos = c->sink.q.whole;
				return luaL_error(L, "records: a malformed records queue");
			}
			c->pos = (size_t)(r.p - c->sink.q.buf);
			if (push_entry(L, c, &e))
				return 1;
			continue;
		}
		if (c->done)
			return 0;
		bc_sink_reset(&c->sink); /* all was read */
		c->pos = c->scanned = 0;
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
	bc_sink_t s;
	bc_reader_t r;
	bc_entry_t e;
	int res;

	if (!c->started)
		return luaL_error(L, "aggregations: tracing has not started");
	bc_sink_init(&s, c->dtp, 0);
	res = bc_aggregate(&s, NULL);
	scan_messages(c); /* faults and drops the walk reported (queued as records) */
	if (bc_sink_failed(&s) || res != 0) {
		bc_sink_fini(&s);
		if (res == 0 || dtrace_errno(c->dtp) == EDT_NOMEM)
			return luaL_error(L, "aggregations: out of memory");
		return hdl_error(L, c, "aggregations");
	}
	lua_settop(L, 1);
	lua_newtable(L); /* 2: the result */
	/* a Lua error (no memory) here would leak s: the walk is copied first */
	r = bc_sink_reader(&s);
	lua_newtable(L); /* 3: the entries, in order */
	while (bc_read_entry(&r, &e) == 1) {
		push_agg(L, &e, false);
		lua_rawseti(L, 3, ++n);
	}
	bc_sink_fini(&s);
	if (list) {
		lua_replace(L, 2);
		return 1;
	}
	for (lua_Integer i = 1; i <= n; i++) {
		lua_settop(L, 3);
		lua_rawgeti(L, 3, i);	     /* 4 */
		lua_getfield(L, 4, "name");  /* 5 */
		lua_getfield(L, 4, "keys");  /* 6 */
		lua_getfield(L, 4, "value"); /* 7 */
		if (!lua_istable(L, 6) || lua_rawlen(L, 6) == 0) {
			lua_pushvalue(L, 5);
			lua_pushvalue(L, 7);
			lua_rawset(L, 2);
		} else {
			lua_pushvalue(L, 5);
			if (lua_rawget(L, 2) != LUA_TTABLE) { /* 8: aggs[name] */
				lua_pop(L, 1);
				lua_newtable(L);
				lua_pushvalue(L, 5);
				lua_pushvalue(L, -2);
				lua_rawset(L, 2);
			}
			tree_put(L, 6, (lua_Integer)lua_rawlen(L, 6), 8, 7);
		}
	}
	lua_settop(L, 2);
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
	bc_sink_fini(&c->sink);
	lu_buf_free(&c->msgs);
	c->pos = c->scanned = 0;
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
