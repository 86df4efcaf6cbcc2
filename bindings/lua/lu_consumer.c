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
 * libdtrace writes JSON Lines (oformat=json, docs/json.md) to a memory
 * stream in dtrace_work() and dtrace_aggregate_write(); the lines wait in
 * the consumer until Lua asks for them and are decoded one at a time, so
 * an error or an interruption in Lua code loses nothing and leaves the
 * consumer usable.  Fault and drop messages are kept for c:messages()
 * instead of going to stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
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
	lu_buf_t pend; /* JSON lines not returned yet, from pos */
	size_t pos;
	lu_buf_t msgs; /* messages, each ending in '\n' */
	unsigned nmsgs, lost;
	char *aggtext; /* the last aggregation snapshot (freed by the next, or close) */
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
		luaL_error(L, "option oformat: the Lua binding always reads oformat=json");
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
	dtrace_handle_err(c->dtp, on_message, c);
	dtrace_handle_drop(c->dtp, on_message, c);
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
	if ((quiet && dtrace_setopt(c->dtp, "quiet", NULL) != 0) ||
	    dtrace_setopt(c->dtp, "oformat", "json") != 0)
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
	if (c->started)
		luaL_error(L, "go: tracing has started");
	if (!dtrace_oformat(c->dtp))
		luaL_error(L, "go: oformat=text was set; the Lua binding reads oformat=json");
	if (dtrace_go(c->dtp) != 0)
		hdl_error(L, c, "go");
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

/* One turn of dtrace(1)'s loop: wait, notice the target's exit, drain into pend. */
static void pump(lua_State *L, consumer_t *c)
{
	dtrace_workstatus_t ws;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (!c->first)
		dtrace_sleep(c->dtp);
	c->first = false;
	if (!c->reported && dtrace_proc_target(c->dtp) > 0 && dtrace_proc_exited(c->dtp, NULL))
		c->reported = true;
	if (c->reported)
		(void)dtrace_stop(c->dtp); /* once; the next work drains END */
	if ((fp = open_memstream(&text, &len)) == NULL)
		luaL_error(L, "records: %s", strerror(errno));
	ws = dtrace_work(c->dtp, fp);
	if (fclose(fp) != 0) {
		free(text);
		luaL_error(L, "records: out of memory");
	}
	/* pend was read to its end (next_record pumps only then): it becomes this text */
	lu_buf_free(&c->pend);
	c->pend.b = text;
	c->pend.len = c->pend.cap = len;
	c->pos = 0;
	if (ws == DTRACE_WORKSTATUS_DONE)
		c->done = true;
	else if (ws == DTRACE_WORKSTATUS_ERROR)
		hdl_error(L, c, "records");
}

/* Replace the array of byte values at -1 (tracemem, a memory key) by a string. */
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

/*
 * The table at -1 is a decoded line: a probe record's data becomes {values}
 * (tracemem's bytes a string), an aggregation entry value = its buckets
 * for quantizations.
 */
static void shape(lua_State *L)
{
	int rec = lua_gettop(L), data;
	lua_Integer n;

	lua_getfield(L, rec, "type");
	if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "probe") == 0 &&
	    lua_getfield(L, rec, "data") == LUA_TTABLE) {
		data = lua_gettop(L);
		n = (lua_Integer)lua_rawlen(L, data);
		for (lua_Integer i = 1; i <= n; i++) { /* each {value=, action=} by its value */
			lua_rawgeti(L, data, i);
			lua_getfield(L, -1, "value");
			lua_getfield(L, -2, "action");
			if (lua_type(L, -1) == LUA_TSTRING &&
			    strcmp(lua_tostring(L, -1), "tracemem") == 0 && lua_istable(L, -2)) {
				lua_pop(L, 1);
				bytes_to_string(L);
			} else {
				lua_pop(L, 1);
			}
			lua_rawseti(L, data, i);
			lua_pop(L, 1);
		}
	} else if (lua_getfield(L, rec, "buckets") == LUA_TTABLE) {
		lua_setfield(L, rec, "value");
		lua_pushnil(L);
		lua_setfield(L, rec, "buckets");
	}
	lua_settop(L, rec);
}

/* Decode the line s[0..n) and push it (shaped); a malformed line is an error. */
static void decode_line(lua_State *L, const char *s, size_t n)
{
	char err[128] = "not an object";
	int top = lua_gettop(L);

	if (lu_json_decode(L, s, n, err, sizeof(err)) != 0 || !lua_istable(L, -1)) {
		lua_settop(L, top);
		lua_pushlstring(L, s, n > 200 ? 200 : n);
		luaL_error(L, "dtrace: unexpected output from libdtrace (%s): %s", err,
			   lua_tostring(L, -1));
	}
	shape(L);
}

/* Push the next record; 0 (nothing pushed) when tracing is over and all is read. */
static int next_record(lua_State *L, consumer_t *c)
{
	for (;;) {
		if (c->pos < c->pend.len) {
			const char *s = c->pend.b + c->pos, *nl;
			size_t n = c->pend.len - c->pos;

			if ((nl = memchr(s, '\n', n)) != NULL)
				n = (size_t)(nl - s);
			/*
			 * consumed before decoding: an error cannot return the same
			 * line again; s stays readable, as nothing writes to pend now
			 */
			c->pos += n + (nl != NULL);
			if (c->pos >= c->pend.len)
				c->pos = c->pend.len = 0;
			if (n == 0)
				continue;
			decode_line(L, s, n);
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
	int list = luaL_checkoption(L, 2, "tree", hows), res;
	lua_Integer n = 0;
	size_t len = 0;
	FILE *fp;

	if (!c->started)
		return luaL_error(L, "aggregations: tracing has not started");
	free(c->aggtext);
	c->aggtext = NULL;
	if ((fp = open_memstream(&c->aggtext, &len)) == NULL)
		return luaL_error(L, "aggregations: %s", strerror(errno));
	res = dtrace_aggregate_write(c->dtp, fp);
	if (fclose(fp) != 0)
		return luaL_error(L, "aggregations: out of memory");
	if (res != 0)
		return hdl_error(L, c, "aggregations");
	lua_settop(L, 1);
	lua_newtable(L); /* 2: the result */
	for (const char *s = c->aggtext, *end = s + len, *nl; s < end; s = nl + 1) {
		size_t ln;

		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		if ((ln = (size_t)(nl - s)) == 0)
			continue;
		decode_line(L, s, ln); /* 3 */
		if (list) {
			lua_pushnil(L);
			lua_setfield(L, 3, "type");
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
	free(c->aggtext);
	c->aggtext = NULL;
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
	free(c->aggtext);
	c->aggtext = NULL;
	c->pos = 0;
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
