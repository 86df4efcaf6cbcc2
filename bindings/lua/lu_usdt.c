/*
 * lu_usdt.c -- require("dtrace"): USDT providers declared by Lua programs
 * (over libusdt), the runtime provider lua:::function-entry/-return, and
 * the module's entry point.
 *
 *   local p = dtrace.provider("myapp")          -- or dtrace.provider{name=, probes=}
 *   local q = p:probe("query-start", "string", "int")
 *   p:enable()
 *   if q.enabled then ... end                    -- one load of the semaphore
 *   q:fire("select 1", 3)                        -- nothing converted while disabled
 *   q:fire_lazy(function() return sql(), 3 end)  -- called only when enabled
 *
 * The runtime provider is created when the module is loaded.  No hook is
 * installed until a tracer enables one of its probes: a watcher thread
 * polls the two semaphores every 50 ms and, when the hook should come or
 * go, sends a real-time signal to the thread that loaded the module, whose
 * handler sets or clears the call/return hook.  lua_sethook is safe in a
 * signal handler (lua.c's SIGINT handler relies on it), not from another
 * thread: setting a hook walks the running thread's call frames, which
 * that thread frees as it returns.  docs/lua.md is the manual.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <usdt.h>

#include "lu_impl.h"

#define PROVIDER_MT "dtrace.Provider"
#define STATE_MT    "dtrace.state"
#define WATCH_NS    50000000L /* the watcher's period */

/* How a Lua value becomes the probe's 64-bit value. */
typedef enum { K_INT, K_UINT, K_PTR, K_STR, K_FLOAT, K_JSON } kind_t;

static const struct {
	const char *name;
	usdt_argtype_t type;
	kind_t kind;
} type_names[] = {
	{ "int", USDT_ARG_INT64, K_INT },	{ "string", USDT_ARG_STRING, K_STR },
	{ "float", USDT_ARG_DOUBLE, K_FLOAT },	{ "json", USDT_ARG_STRING, K_JSON },
	{ "int8", USDT_ARG_INT8, K_INT },	{ "uint8", USDT_ARG_UINT8, K_UINT },
	{ "int16", USDT_ARG_INT16, K_INT },	{ "uint16", USDT_ARG_UINT16, K_UINT },
	{ "int32", USDT_ARG_INT32, K_INT },	{ "uint32", USDT_ARG_UINT32, K_UINT },
	{ "int64", USDT_ARG_INT64, K_INT },	{ "uint64", USDT_ARG_UINT64, K_UINT },
	{ "pointer", USDT_ARG_POINTER, K_PTR }, { "double", USDT_ARG_DOUBLE, K_FLOAT },
};

typedef struct {
	usdt_provider_t *prov; /* NULL once destroyed */
	bool enabled;
	char name[64];
} provider_t; /* user value 1: its probes, by name */

/*
 * A probe is a Lua table {fire=, fire_lazy=, name=, provider=, argc=}
 * whose two functions are C closures bound to this userdata: a call is one
 * C call, with no method lookup through a metamethod and no type check.
 * Its own metatable's __index, bound likewise, answers probe.enabled.
 */
typedef struct {
	usdt_probe_t *probe; /* owned by libusdt; valid for the life of the process */
	int argc;
	unsigned char kinds[USDT_MAXARGS];
	char fullname[64 + 3 + 64]; /* "provider:::probe", for messages */
} probe_t;

/* The module's state in a lua_State: one userdata in the registry, finalized at lua_close. */
typedef struct {
	lu_buf_t json;	     /* the JSON text of a fire's arguments, reused */
	lua_State *L;	     /* the main thread, which the watcher hooks */
	usdt_provider_t *rt; /* the runtime provider; NULL if stopped or failed */
	usdt_probe_t *entry, *ret;
	usdt_probe_t *probes[2]; /* entry and ret, watched */
	usdt_watch_t *watch;	 /* libusdt's watcher thread */
	char rterr[160];	 /* why there is no runtime provider */
} mstate_t;

static const char state_key; /* its address keys mstate_t in the registry */

/*
 * The process's runtime provider (one: the first lua_State to load the
 * module gets it), the thread its handler runs on, and the signal.  The
 * handler stays installed once set: it does nothing when g_rt is NULL.
 */
static mstate_t *g_rt;
static pthread_t g_rt_thread;
static int g_rt_sig;

/* ---------------------------------------------------------------- helpers */

static int usdt_error(lua_State *L, const char *what, const usdt_provider_t *prov, int code)
{
	const char *msg = prov != NULL ? usdt_provider_errmsg(prov) : NULL;

	return luaL_error(L, "%s: %s", what,
			  msg != NULL && *msg != '\0' ? msg : usdt_strerror(code));
}

/* ---------------------------------------------------------------- probes */

/* A value that does not fit its argument: fire's arguments are named by position. */
static int bad_value(lua_State *L, const probe_t *p, int idx, int i, bool lazy, const char *msg)
{
	if (lazy)
		return luaL_error(L, "value #%d from fire_lazy's function: %s for %s, got %s",
				  i + 1, msg, p->fullname, luaL_typename(L, idx));
	return luaL_argerror(
	    L, idx,
	    lua_pushfstring(L, "%s for %s, got %s", msg, p->fullname, luaL_typename(L, idx)));
}

/* Convert the n values from stack index first and fire; the probe is enabled. */
static int fire_values(lua_State *L, probe_t *p, mstate_t *st, int first, int n, bool lazy)
{
	usdt_arg_t v[USDT_MAXARGS];
	size_t joff[USDT_MAXARGS];
	char err[256];
	int isnum;

	if (n != p->argc)
		return luaL_error(L, "%s takes %d argument%s (%d given)", p->fullname, p->argc,
				  p->argc == 1 ? "" : "s", n);
	st->json.len = 0;
	for (int i = 0; i < n; i++) {
		int idx = first + i;

		switch ((kind_t)p->kinds[i]) {
		case K_INT:
		case K_UINT:
			v[i].i = lua_tointegerx(L, idx, &isnum);
			if (!isnum)
				return bad_value(L, p, idx, i, lazy, "integer expected");
			break;
		case K_PTR:
			if (lua_isuserdata(L, idx) || lua_isnil(L, idx)) {
				v[i].p = lua_touserdata(L, idx);
				break;
			}
			v[i].i = lua_tointegerx(L, idx, &isnum);
			if (!isnum)
				return bad_value(L, p, idx, i, lazy, "address expected");
			break;
		case K_FLOAT:
			v[i].d = (double)lua_tonumberx(L, idx, &isnum);
			if (!isnum)
				return bad_value(L, p, idx, i, lazy, "number expected");
			break;
		case K_STR:
			if (lua_isnil(L, idx))
				v[i].s = NULL;
			else if ((v[i].s = lua_tostring(L, idx)) == NULL)
				return bad_value(L, p, idx, i, lazy, "string expected");
			break;
		case K_JSON:
			joff[i] = st->json.len;
			if (lu_json_encode(L, idx, &st->json, err, sizeof(err)) != 0) {
				if (lazy)
					return luaL_error(L,
							  "value #%d from fire_lazy's function: %s",
							  i + 1, err);
				return luaL_argerror(L, idx, err);
			}
			break;
		}
	}
	/* the text may have moved while it grew: point at it only now */
	for (int i = 0; i < n; i++)
		if (p->kinds[i] == K_JSON)
			v[i].s = st->json.b + joff[i];
	(void)usdt_probe_fire(p->probe, n, v); /* only -EUSDT_DESTROYED: a fire into nothing */
	return 0;
}

/* probe:fire(...): nothing is looked at while no tracer has the probe enabled. */
static int probe_fire(lua_State *L)
{
	probe_t *p = lua_touserdata(L, lua_upvalueindex(1));
	int n = lua_gettop(L) - 1; /* after self */

	if (usdt_probe_is_enabled(p->probe) <= 0)
		return 0;
	return fire_values(L, p, lua_touserdata(L, lua_upvalueindex(2)), 2, n < 0 ? 0 : n, false);
}

/* probe:fire_lazy(f): f() is called only when enabled and returns the values. */
static int probe_fire_lazy(lua_State *L)
{
	probe_t *p = lua_touserdata(L, lua_upvalueindex(1));

	if (lua_type(L, 2) != LUA_TFUNCTION) {
		if (luaL_getmetafield(L, 2, "__call") == LUA_TNIL)
			return luaL_typeerror(L, 2, "callable");
		lua_pop(L, 1);
	}
	if (usdt_probe_is_enabled(p->probe) <= 0)
		return 0;
	lua_settop(L, 2);
	lua_call(L, 0, LUA_MULTRET); /* its values replace it, from 2 */
	return fire_values(L, p, lua_touserdata(L, lua_upvalueindex(2)), 2, lua_gettop(L) - 1,
			   true);
}

/* probe.enabled: one load of the semaphore (the other fields are plain). */
static int probe_index(lua_State *L)
{
	const probe_t *p = lua_touserdata(L, lua_upvalueindex(1));

	if (!lua_rawequal(L, 2, lua_upvalueindex(2)))
		return 0;
	lua_pushboolean(L, usdt_probe_is_enabled(p->probe) > 0);
	return 1;
}

static int probe_tostring(lua_State *L)
{
	const probe_t *p = lua_touserdata(L, lua_upvalueindex(1));

	lua_pushfstring(L, "dtrace.Probe(%s)", p->fullname);
	return 1;
}

/* ---------------------------------------------------------------- providers */

static provider_t *checkprovider(lua_State *L)
{
	return luaL_checkudata(L, 1, PROVIDER_MT);
}

static provider_t *liveprovider(lua_State *L)
{
	provider_t *pv = checkprovider(L);

	if (pv->prov == NULL)
		luaL_error(L, "provider %s was destroyed", pv->name);
	return pv;
}

/*
 * Add a probe to the provider at 1: its name at nidx, its types in the
 * list at tidx (with an optional "function" field).  Pushes the probe.
 */
static void make_probe(lua_State *L, int nidx, int tidx)
{
	provider_t *pv = liveprovider(L);
	usdt_argtype_t types[USDT_MAXARGS];
	const char *name = luaL_checkstring(L, nidx), *fn = NULL;
	lua_Unsigned n = lua_rawlen(L, tidx);
	probe_t *p;
	int t;

	if (n > USDT_MAXARGS)
		luaL_error(L, "probe %s: a probe takes at most %d arguments", name, USDT_MAXARGS);
	if (lua_getfield(L, tidx, "function") != LUA_TNIL && (fn = lua_tostring(L, -1)) == NULL)
		luaL_error(L, "probe %s: function must be a string", name);
	p = lua_newuserdatauv(L, sizeof(*p), 0);
	memset(p, 0, sizeof(*p));
	p->argc = (int)n;
	snprintf(p->fullname, sizeof(p->fullname), "%s:::%s", pv->name, name);
	for (int i = 0; i < p->argc; i++) {
		const char *ty;
		size_t k;

		lua_rawgeti(L, tidx, i + 1);
		ty = lua_tostring(L, -1);
		for (k = 0; ty != NULL && k < sizeof(type_names) / sizeof(type_names[0]); k++)
			if (strcmp(ty, type_names[k].name) == 0)
				break;
		if (ty == NULL || k == sizeof(type_names) / sizeof(type_names[0]))
			luaL_error(L,
				   "probe %s: argument type %d: %s is not one of int, string, "
				   "float, json, int8..uint64, pointer, double",
				   name, i + 1,
				   ty != NULL ? lua_pushfstring(L, "'%s'", ty)
					      : luaL_typename(L, -1));
		types[i] = type_names[k].type;
		p->kinds[i] = (unsigned char)type_names[k].kind;
		lua_pop(L, 1);
	}
	/* libusdt writes "-" as "__" in the note */
	if ((p->probe = usdt_probe_create(pv->prov, fn, name, p->argc, types)) == NULL)
		usdt_error(L, lua_pushfstring(L, "probe %s", name), pv->prov,
			   usdt_provider_errno(pv->prov));
	lua_createtable(L, 0, 5);
	t = lua_gettop(L);
	lua_pushvalue(L, t - 1);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key);
	lua_pushcclosure(L, probe_fire, 2);
	lua_setfield(L, t, "fire");
	lua_pushvalue(L, t - 1);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key);
	lua_pushcclosure(L, probe_fire_lazy, 2);
	lua_setfield(L, t, "fire_lazy");
	lua_pushvalue(L, nidx);
	lua_setfield(L, t, "name");
	lua_pushvalue(L, 1);
	lua_setfield(L, t, "provider");
	lua_pushinteger(L, p->argc);
	lua_setfield(L, t, "argc");
	lua_createtable(L, 0, 3); /* its metatable */
	lua_pushvalue(L, t - 1);
	lua_pushliteral(L, "enabled");
	lua_pushcclosure(L, probe_index, 2);
	lua_setfield(L, -2, "__index");
	lua_pushvalue(L, t - 1);
	lua_pushcclosure(L, probe_tostring, 1);
	lua_setfield(L, -2, "__tostring");
	lua_pushliteral(L, "dtrace.Probe");
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, t);
	lua_getiuservalue(L, 1, 1); /* provider.probes[name] = probe */
	lua_pushvalue(L, nidx);
	lua_pushvalue(L, t);
	lua_rawset(L, -3);
	lua_pop(L, 1);
	lua_replace(L, t - 2); /* drop the "function" field and the userdata */
	lua_pop(L, 1);
}

/* p:probe(name, type, ...) or p:probe(name, {type, ..., ["function"] = f}) */
static int provider_probe(lua_State *L)
{
	int top = lua_gettop(L);

	(void)liveprovider(L);
	luaL_checkstring(L, 2);
	if (top == 3 && lua_istable(L, 3)) {
		make_probe(L, 2, 3);
		return 1;
	}
	lua_createtable(L, top - 2, 0);
	for (int i = 3; i <= top; i++) {
		lua_pushvalue(L, i);
		lua_rawseti(L, -2, i - 2);
	}
	make_probe(L, 2, top + 1);
	return 1;
}

static int provider_enable(lua_State *L)
{
	provider_t *pv = liveprovider(L);
	int rc;

	if ((rc = usdt_provider_enable(pv->prov)) != 0)
		return usdt_error(L, "enable", pv->prov, rc);
	pv->enabled = true;
	lua_settop(L, 1);
	return 1;
}

static int provider_disable(lua_State *L)
{
	provider_t *pv = liveprovider(L);
	int rc;

	if ((rc = usdt_provider_disable(pv->prov)) != 0)
		return usdt_error(L, "disable", pv->prov, rc);
	pv->enabled = false;
	return 0;
}

/* destroy, __gc and __close: its probes then fire into nothing. */
static int provider_destroy(lua_State *L)
{
	provider_t *pv = checkprovider(L);

	usdt_provider_destroy(pv->prov);
	pv->prov = NULL;
	pv->enabled = false;
	return 0;
}

static int provider_index(lua_State *L)
{
	provider_t *pv = checkprovider(L);
	const char *k;

	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL || lua_type(L, 2) != LUA_TSTRING)
		return 1;
	k = lua_tostring(L, 2);
	if (strcmp(k, "name") == 0)
		lua_pushstring(L, pv->name);
	else if (strcmp(k, "enabled") == 0)
		lua_pushboolean(L, pv->prov != NULL && pv->enabled);
	else if (strcmp(k, "destroyed") == 0)
		lua_pushboolean(L, pv->prov == NULL);
	else if (strcmp(k, "probes") == 0)
		lua_getiuservalue(L, 1, 1);
	else if (strcmp(k, "path") == 0 && pv->prov != NULL && usdt_provider_path(pv->prov) != NULL)
		lua_pushstring(L, usdt_provider_path(pv->prov));
	else
		lua_pushnil(L);
	return 1;
}

static int provider_tostring(lua_State *L)
{
	provider_t *pv = checkprovider(L);

	lua_pushfstring(L, "dtrace.Provider(%s, %s)", pv->name,
			pv->prov == NULL ? "destroyed"
			: pv->enabled	 ? "enabled"
					 : "not enabled");
	return 1;
}

/* dtrace.provider(name [, module]) or dtrace.provider{name=, module=, probes={name={types}}} */
static int l_provider(lua_State *L)
{
	const char *name, *module = NULL;
	provider_t *pv;
	int err = 0, spec = 0;

	if (lua_istable(L, 1)) {
		spec = 1;
		lua_pushnil(L);
		while (lua_next(L, 1) != 0) {
			const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;

			if (k == NULL || (strcmp(k, "name") != 0 && strcmp(k, "module") != 0 &&
					  strcmp(k, "probes") != 0))
				return luaL_error(L, "dtrace.provider: unknown field %s",
						  luaL_tolstring(L, -2, NULL));
			lua_pop(L, 1);
		}
		lua_settop(L, 1);
		if (lua_getfield(L, 1, "name") != LUA_TSTRING)
			return luaL_error(L, "dtrace.provider: name must be a string");
		if (lua_getfield(L, 1, "module") != LUA_TNIL && !lua_isstring(L, 3))
			return luaL_error(L, "dtrace.provider: module must be a string");
		if (lua_getfield(L, 1, "probes") != LUA_TNIL && !lua_istable(L, 4))
			return luaL_error(L, "dtrace.provider: probes must be a table");
		lua_remove(L, 1); /* name, module, probes */
	} else {
		lua_settop(L, 2);
		luaL_checkstring(L, 1);
		luaL_optstring(L, 2, NULL);
		lua_pushnil(L);
	}
	name = lua_tostring(L, 1);
	module = lua_tostring(L, 2);
	pv = lua_newuserdatauv(L, sizeof(*pv), 1);
	memset(pv, 0, sizeof(*pv));
	luaL_setmetatable(L, PROVIDER_MT);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 1);
	if ((pv->prov = usdt_provider_create(name, module, NULL, &err)) == NULL)
		return usdt_error(L, lua_pushfstring(L, "provider %s", name), NULL, err);
	snprintf(pv->name, sizeof(pv->name), "%s", name);
	lua_replace(L, 1); /* the provider, module, probes */
	if (spec && lua_istable(L, 3)) {
		lua_pushnil(L);
		while (lua_next(L, 3) != 0) { /* name = {types} */
			if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
				return luaL_error(
				    L, "dtrace.provider: probes maps names to type lists");
			make_probe(L, lua_gettop(L) - 1, lua_gettop(L));
			lua_pop(L, 2);
		}
	}
	lua_settop(L, 1);
	return 1;
}

/* ---------------------------------------------------------------- the runtime provider */

static void hook(lua_State *L, lua_Debug *ar)
{
	/* only g_rt's state is ever hooked (coroutines inherit it): no registry lookup per call */
	const mstate_t *st = __atomic_load_n(&g_rt, __ATOMIC_ACQUIRE);
	usdt_probe_t *pb;
	const char *file, *name;

	if (st == NULL) { /* stopped: a coroutine that inherited the hook drops it */
		lua_sethook(L, NULL, 0, 0);
		return;
	}
	pb = ar->event == LUA_HOOKRET ? st->ret : st->entry;
	if (usdt_probe_is_enabled(pb) <= 0) {
		/* no tracer now: a coroutine that inherited the hook drops it (the watcher does main's) */
		if (usdt_probe_is_enabled(st->entry) <= 0 && usdt_probe_is_enabled(st->ret) <= 0)
			lua_sethook(L, NULL, 0, 0);
		return;
	}
	if (!lua_getinfo(L, "nS", ar))
		return;
	file = ar->source != NULL && ar->source[0] == '@' ? ar->source + 1 : ar->short_src;
	name = ar->name != NULL ? ar->name : strcmp(ar->what, "main") == 0 ? "main chunk" : "?";
	usdt_probe_fire3(pb, (uint64_t)(uintptr_t)name, (uint64_t)(uintptr_t)file,
			 (uint64_t)(int64_t)ar->linedefined);
}

/* Does the hook need to come (a tracer, no hook) or go (no tracer, ours)? */
static bool hook_change(const mstate_t *st, bool *on)
{
	lua_Hook h = lua_gethook(st->L);

	*on = usdt_probe_is_enabled(st->entry) > 0 || usdt_probe_is_enabled(st->ret) > 0;
	/* a hook of the program's own (debug.sethook) is left alone */
	return (*on && h == NULL) || (!*on && h == hook);
}

/* On the Lua thread, between two VM instructions or inside a C call. */
static void on_signal(int sig)
{
	mstate_t *st = __atomic_load_n(&g_rt, __ATOMIC_ACQUIRE);
	bool on;

	(void)sig;
	if (st == NULL || !hook_change(st, &on))
		return;
	if (on)
		lua_sethook(st->L, hook, LUA_MASKCALL | LUA_MASKRET, 0);
	else
		lua_sethook(st->L, NULL, 0, 0);
}

/* On libusdt's watcher thread: the Lua thread changes its hook, in the signal's handler. */
static void on_watch(bool on, void *arg)
{
	(void)on;
	if (hook_change(arg, &on))
		(void)pthread_kill(g_rt_thread, g_rt_sig);
}

/* A real-time signal nobody handles (from the top), with our handler; 0 if none. */
static int claim_signal(void)
{
	struct sigaction sa, old;

	if (g_rt_sig != 0)
		return g_rt_sig;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART; /* read() and the like go on; poll() and sleeps may see EINTR */
	sigfillset(&sa.sa_mask);
	for (int sig = SIGRTMAX; sig > SIGRTMIN; sig--) {
		if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) != 0 ||
		    old.sa_handler != SIG_DFL)
			continue;
		if (sigaction(sig, &sa, NULL) == 0)
			return g_rt_sig = sig;
	}
	return 0;
}

static void runtime_start(mstate_t *st)
{
	static const usdt_argtype_t types[] = { USDT_ARG_STRING, USDT_ARG_STRING, USDT_ARG_INT32 };
	int err = 0;

	if (g_rt != NULL) {
		snprintf(st->rterr, sizeof(st->rterr),
			 "another Lua state of this process has the runtime provider");
		return;
	}
	if (claim_signal() == 0) {
		snprintf(st->rterr, sizeof(st->rterr), "no free real-time signal for the watcher");
		return;
	}
	if ((st->rt = usdt_provider_create("lua", NULL, NULL, &err)) == NULL) {
		snprintf(st->rterr, sizeof(st->rterr), "%s", usdt_strerror(err));
		return;
	}
	st->entry = usdt_probe_create(st->rt, "function__entry", "function__entry", 3, types);
	st->ret = usdt_probe_create(st->rt, "function__return", "function__return", 3, types);
	if (st->entry == NULL || st->ret == NULL || usdt_provider_enable(st->rt) != 0) {
		snprintf(st->rterr, sizeof(st->rterr), "%s", usdt_provider_errmsg(st->rt));
		goto fail;
	}
	st->probes[0] = st->entry;
	st->probes[1] = st->ret;
	if ((st->watch = usdt_watch_start(st->probes, 2, WATCH_NS, on_watch, st, &err)) != NULL) {
		g_rt_thread = pthread_self();
		__atomic_store_n(&g_rt, st, __ATOMIC_RELEASE);
		return;
	}
	snprintf(st->rterr, sizeof(st->rterr), "cannot start the watcher thread: %s",
		 strerror(err));
fail:
	usdt_provider_destroy(st->rt);
	st->rt = NULL;
}

/* Stop the watcher, remove our hook from the main thread, destroy the provider. */
static void runtime_stop(mstate_t *st)
{
	if (g_rt == st) /* a signal still on its way finds nothing to do */
		__atomic_store_n(&g_rt, NULL, __ATOMIC_RELEASE);
	usdt_watch_stop(st->watch); /* in a forked child: no thread to join */
	st->watch = NULL;
	if (st->L != NULL && lua_gethook(st->L) == hook)
		lua_sethook(st->L, NULL, 0, 0);
	usdt_provider_destroy(st->rt);
	st->rt = NULL; /* entry and ret stay valid: they fire into nothing */
	if (st->rterr[0] == '\0')
		snprintf(st->rterr, sizeof(st->rterr), "stopped by dtrace.runtime_stop()");
}

static mstate_t *mstate(lua_State *L)
{
	mstate_t *st;

	lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key);
	st = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return st;
}

static int state_gc(lua_State *L)
{
	mstate_t *st = luaL_checkudata(L, 1, STATE_MT);

	runtime_stop(st);
	lu_buf_free(&st->json);
	return 0;
}

/*
 * dtrace.runtime_active([name, ...]): is the hook installed on the main
 * thread (a tracer is there) and, for each probe named, has the tracer
 * enabled it?  A tracer enables its probes one after another.
 */
static int l_runtime_active(lua_State *L)
{
	const mstate_t *st = mstate(L);
	bool on = st != NULL && st->L != NULL && lua_gethook(st->L) == hook;

	for (int i = 1; i <= lua_gettop(L); i++) {
		const char *name = luaL_checkstring(L, i);
		usdt_probe_t *p;

		if (strcmp(name, "function-entry") == 0)
			p = st != NULL ? st->entry : NULL;
		else if (strcmp(name, "function-return") == 0)
			p = st != NULL ? st->ret : NULL;
		else
			return luaL_argerror(L, i,
					     lua_pushfstring(L,
							     "no runtime probe '%s' (there are "
							     "function-entry, function-return)",
							     name));
		on = on && p != NULL && usdt_probe_is_enabled(p) > 0;
	}
	lua_pushboolean(L, on);
	return 1;
}

/* dtrace.runtime_path(): the runtime provider's image, or nil and why there is none. */
static int l_runtime_path(lua_State *L)
{
	const mstate_t *st = mstate(L);

	if (st != NULL && st->rt != NULL && usdt_provider_path(st->rt) != NULL) {
		lua_pushstring(L, usdt_provider_path(st->rt));
		return 1;
	}
	lua_pushnil(L);
	lua_pushstring(L, st != NULL ? st->rterr : "no module state");
	return 2;
}

static int l_runtime_stop(lua_State *L)
{
	mstate_t *st = mstate(L);

	if (st != NULL)
		runtime_stop(st);
	return 0;
}

/* ---------------------------------------------------------------- JSON */

/* The text goes to the module state's buffer (as fire's do): a memory error
   raised while encoding unwinds past this function and leaks nothing. */
static int l_json_encode(lua_State *L)
{
	mstate_t *st = mstate(L);
	char err[256];

	luaL_checkany(L, 1);
	if (st == NULL)
		return luaL_error(L, "json_encode: no module state");
	st->json.len = 0;
	if (lu_json_encode(L, 1, &st->json, err, sizeof(err)) != 0)
		return luaL_error(L, "%s", err);
	lua_pushlstring(L, st->json.b, st->json.len - 1);
	return 1;
}

static int l_json_decode(lua_State *L)
{
	size_t n;
	const char *s = luaL_checklstring(L, 1, &n);
	char err[128];

	if (lu_json_decode(L, s, n, err, sizeof(err)) != 0)
		return luaL_error(L, "%s", err);
	return 1;
}

/* ---------------------------------------------------------------- the module */

#define LU_EXPORT __attribute__((visibility("default")))
LU_EXPORT int luaopen_dtrace(lua_State *L);

LU_EXPORT int luaopen_dtrace(lua_State *L)
{
	static const luaL_Reg provider_fns[] = {
		{ "probe", provider_probe },
		{ "enable", provider_enable },
		{ "disable", provider_disable },
		{ "destroy", provider_destroy },
		{ NULL, NULL },
	};
	static const luaL_Reg module_fns[] = {
		{ "provider", l_provider },
		{ "runtime_active", l_runtime_active },
		{ "runtime_path", l_runtime_path },
		{ "runtime_stop", l_runtime_stop },
		{ "json_encode", l_json_encode },
		{ "json_decode", l_json_decode },
		{ NULL, NULL },
	};
	mstate_t *st = mstate(L);

	luaL_checkversion(L);
	if (st == NULL) { /* the first load in this state */
		st = lua_newuserdatauv(L, sizeof(*st), 0);
		memset(st, 0, sizeof(*st));
		luaL_newmetatable(L, STATE_MT);
		lua_pushcfunction(L, state_gc);
		lua_setfield(L, -2, "__gc");
		lua_setmetatable(L, -2);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
		lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
		st->L = lua_tothread(L, -1);
		lua_pop(L, 1);
		runtime_start(st);
	}
	luaL_newmetatable(L, PROVIDER_MT);
	luaL_newlib(L, provider_fns);
	lua_pushcclosure(L, provider_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, provider_destroy);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, provider_destroy);
	lua_setfield(L, -2, "__close");
	lua_pushcfunction(L, provider_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushliteral(L, PROVIDER_MT);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);

	luaL_newlib(L, module_fns);
	lu_consumer_register(L);
	return 1;
}
