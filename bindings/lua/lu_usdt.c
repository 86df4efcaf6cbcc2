/*
 * lu_usdt.c -- require("dtrace"): USDT providers declared by Lua programs
 * (over libusdt), the runtime provider lua_rt:::function-entry/-return, and
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
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <usdt.h>

#include "bc_usdt.h"
#include "lu_impl.h"

#define PROVIDER_MT "dtrace.Provider"
#define STATE_MT    "dtrace.state"
#define PROBE_MT    "dtrace.probe" /* the probe_t userdata's: __gc frees its mirror */
#define WATCH_NS    50000000L	   /* the watcher's period */

typedef struct {
	usdt_provider_t *prov; /* NULL once destroyed */
	bool enabled;
	char name[64];
} provider_t; /* user value 1: its probes, by name */

/*
 * A probe is a Lua table {fire=, fire_lazy=, name=, provider=, argc=}
 * whose fire_lazy is a C closure bound to this userdata; its own
 * metatable's __index, bound likewise, answers probe.enabled.
 *
 * fire is mirrored (see "mirrors" below): while no tracer has the probe
 * enabled it is an empty Lua function, so that a disabled fire costs a
 * Lua call and no C call (a C call costs Lua 5.4 about twice an empty Lua
 * function's, which no work inside it can win back); while enabled, it is
 * the C closure probe_fire.  Probes of a lua_State without the watcher (a
 * second state, or no free signal) keep probe_fire, which tests the
 * semaphore itself.
 */
struct mstate;

typedef struct {
	usdt_probe_t *probe; /* owned by libusdt; valid for the life of the process */
	int argc;
	int mirror;	   /* its slot in st->mirrors, or -1 */
	struct mstate *st; /* the module state (when mirrored) */
	unsigned char kinds[USDT_MAXARGS];
	char fullname[64 + 3 + 64]; /* "provider:::probe", for messages */
} probe_t;

/* A mirrored probe, as the watcher thread sees it. */
typedef struct {
	usdt_probe_t *h; /* NULL: a free slot */
	atomic_bool on;	 /* its fire field is probe_fire */
} mirror_t;

/* The module's state in a lua_State: one userdata in the registry, finalized at lua_close. */
typedef struct mstate {
	lu_buf_t json; /* the JSON text of a fire's arguments, reused */
	lua_State *L;  /* the main thread, which the watcher hooks */
	/* the runtime provider (rt.prov NULL if stopped or failed), its probes
	   (valid after stop: they fire into nothing) and libusdt's watcher */
	bc_rt_t rt;
	char rterr[160]; /* why there is no runtime provider */
	/* the mirrors: slots under mlock (the Lua thread grows the array) */
	pthread_mutex_t mlock;
	pthread_cond_t mcond; /* wakes the mirror thread to stop */
	mirror_t *mirrors;
	int nmirrors, cap;
	bool mthread_on, mstop;
	pthread_t mthread;
	pid_t mpid;		  /* the process the mirror thread runs in */
	atomic_bool sync_pending; /* a mirror differs from its semaphore */
	/* while sync_hook is installed on st->L: the hook it replaced */
	volatile sig_atomic_t sync_set;
	lua_Hook saved_hook;
	int saved_mask, saved_count;
} mstate_t;

static const char state_key;  /* its address keys mstate_t in the registry */
static const char mirror_key; /* registry: probe table -> its probe_fire (weak keys) */
static const char noop_key;   /* registry: the empty function a disabled fire is */

/*
 * The process's runtime provider (one: the first lua_State to load the
 * module gets it), the thread its handler runs on, and the signal.  The
 * handler stays installed once set: it does nothing when g_rt is NULL.
 */
static mstate_t *g_rt;
static pthread_t g_rt_thread;
static int g_rt_sig;

static mstate_t *mstate(lua_State *L);

/* ---------------------------------------------------------------- helpers */

static int usdt_error(lua_State *L, const char *what, const usdt_provider_t *prov, int code)
{
	char msg[512];

	return luaL_error(L, "%s", bc_msg_usdt(msg, sizeof(msg), what, prov, code));
}

/* ---------------------------------------------------------------- mirrors */

/*
 * A mirrored probe's fire field follows its semaphore: the empty function
 * while 0, probe_fire while not.  The fields change only on the Lua
 * thread, where Lua may run: in the module's own functions (enable,
 * disable, probe, destroy, probe.enabled) and in sync_hook.  A thread (one
 * per process, like the runtime provider's watcher) looks at the
 * semaphores every WATCH_NS; when a mirror differs, it signals the Lua
 * thread, whose handler installs sync_hook as a count hook, and the hook,
 * at the next VM instruction, puts back the hook it displaced and syncs
 * every mirror.  So a tracer attaching to a running program (dtrace -p)
 * sees fires after at most ~WATCH_NS (dtrace -Z -c: at once, enable()
 * returns once it has attached); one detaching leaves probe_fire, which
 * tests the semaphore itself, until the next sync.  probe.enabled always
 * reads the semaphore, and syncs its probe.
 */

/* t's fire: probe_fire (the closure at cf) or the empty function, as its semaphore says. */
static void mirror_set(lua_State *L, int t, int cf, const probe_t *p)
{
	bool on = usdt_probe_is_enabled(p->probe) > 0;
	mirror_t *m = &p->st->mirrors[p->mirror];

	if (on == atomic_load(&m->on))
		return;
	t = lua_absindex(L, t), cf = lua_absindex(L, cf);
	lua_pushliteral(L, "fire"); /* an existing key: no allocation, no error */
	if (on)
		lua_pushvalue(L, cf);
	else
		lua_rawgetp(L, LUA_REGISTRYINDEX, &noop_key);
	lua_rawset(L, t);
	atomic_store(&m->on, on);
}

/* Every mirrored probe's fire as its semaphore says (allocates nothing: safe in a hook). */
static void mirror_sync(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &mirror_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	lua_pushnil(L);
	while (lua_next(L, -2) != 0) { /* the probe table, its probe_fire */
		const probe_t *p;

		lua_getupvalue(L, -1, 1);
		p = lua_touserdata(L, -1);
		lua_pop(L, 1);
		if (p != NULL && p->mirror >= 0 && p->st->mirrors != NULL)
			mirror_set(L, -2, -1, p);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* The count hook the signal handler installs: put back what it displaced, then sync. */
static void sync_hook(lua_State *L, lua_Debug *ar)
{
	mstate_t *st = __atomic_load_n(&g_rt, __ATOMIC_ACQUIRE);
	sigset_t set, old;

	(void)ar;
	if (st == NULL) { /* stopped: runtime_stop put main's hook back */
		lua_sethook(L, NULL, 0, 0);
		return;
	}
	/* the handler must not change saved_* between the two lines */
	sigemptyset(&set);
	sigaddset(&set, g_rt_sig);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	/* also a coroutine that inherited sync_hook gets the program's hook back */
	lua_sethook(L, st->saved_hook, st->saved_mask, st->saved_count);
	if (L == st->L)
		st->sync_set = 0;
	atomic_store(&st->sync_pending, false);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	mirror_sync(L);
}

static void *mirror_main(void *arg)
{
	mstate_t *st = arg;
	struct timespec ts;

	pthread_mutex_lock(&st->mlock);
	while (!st->mstop) {
		bool change = false;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += WATCH_NS;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		while (!st->mstop &&
		       pthread_cond_timedwait(&st->mcond, &st->mlock, &ts) != ETIMEDOUT)
			;
		if (st->mstop)
			break;
		for (int i = 0; i < st->nmirrors && !change; i++) {
			const mirror_t *m = &st->mirrors[i];

			change = m->h != NULL &&
				 (usdt_probe_is_enabled(m->h) > 0) != atomic_load(&m->on);
		}
		/* again every period until synced: a hook may have been replaced */
		if (change) {
			atomic_store(&st->sync_pending, true);
			(void)pthread_kill(g_rt_thread, g_rt_sig);
		}
	}
	pthread_mutex_unlock(&st->mlock);
	return NULL;
}

/* Start the mirror thread, all signals blocked in it; false if it could not be. */
static bool mirror_start(mstate_t *st)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	if (pthread_condattr_init(&ca) != 0)
		return false;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&st->mcond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0)
		return false;
	pthread_mutex_init(&st->mlock, NULL);
	st->mstop = false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&st->mthread, NULL, mirror_main, st);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&st->mcond);
		pthread_mutex_destroy(&st->mlock);
		return false;
	}
	st->mthread_on = true;
	st->mpid = getpid();
	return true;
}

/* A forked child has no mirror thread (and maybe a lock held by it): a new one, new locks. */
static void mirror_atfork_child(void)
{
	mstate_t *st = g_rt;

	if (st == NULL || !st->mthread_on)
		return;
	st->mthread_on = false;
	g_rt_thread = pthread_self();
	if (!mirror_start(st)) { /* every probe fires through probe_fire from its next sync on */
		for (int i = 0; i < st->nmirrors; i++)
			st->mirrors[i].h = NULL;
	}
}

static void atfork_register(void)
{
	pthread_atfork(NULL, NULL, mirror_atfork_child);
}

/*
 * Mirror the probe p (table at t, probe_fire at cf) in the state that has
 * the runtime provider's signal and thread; its fire field is then set.
 * Else, or when out of memory, fire stays probe_fire.
 */
static void mirror_add(lua_State *L, mstate_t *st, probe_t *p, int t, int cf)
{
	static pthread_once_t atfork = PTHREAD_ONCE_INIT;
	int i;

	t = lua_absindex(L, t), cf = lua_absindex(L, cf);
	p->mirror = -1;
	if (st == NULL || st != __atomic_load_n(&g_rt, __ATOMIC_ACQUIRE) ||
	    (st->mthread_on && st->mpid != getpid()))
		return;
	if (!st->mthread_on) {
		pthread_once(&atfork, atfork_register);
		if (!mirror_start(st))
			return;
	}
	pthread_mutex_lock(&st->mlock);
	for (i = 0; i < st->nmirrors && st->mirrors[i].h != NULL; i++)
		;
	if (i == st->cap) {
		int cap = st->cap ? 2 * st->cap : 16;
		mirror_t *m = realloc(st->mirrors, cap * sizeof(*m));

		if (m == NULL) {
			pthread_mutex_unlock(&st->mlock);
			return;
		}
		st->mirrors = m, st->cap = cap;
	}
	if (i == st->nmirrors)
		st->nmirrors++;
	st->mirrors[i].h = p->probe;
	atomic_init(&st->mirrors[i].on, true); /* fire is probe_fire now */
	pthread_mutex_unlock(&st->mlock);
	p->mirror = i;
	p->st = st;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &mirror_key);
	lua_pushvalue(L, t);
	lua_pushvalue(L, cf);
	lua_rawset(L, -3);
	lua_pop(L, 1);
	mirror_set(L, t, cf, p);
}

/* The probe_t's __gc: its slot is free. */
static int probe_gc(lua_State *L)
{
	probe_t *p = lua_touserdata(L, 1);

	if (p->mirror >= 0 && p->st->mirrors != NULL && p->st->mpid == getpid()) {
		pthread_mutex_lock(&p->st->mlock);
		p->st->mirrors[p->mirror].h = NULL;
		pthread_mutex_unlock(&p->st->mlock);
	}
	p->mirror = -1;
	return 0;
}

/* Stop mirroring (runtime_stop): every mirrored fire becomes probe_fire, if L is given. */
static void mirror_stop(lua_State *L, mstate_t *st)
{
	if (st->mthread_on && st->mpid == getpid()) {
		pthread_mutex_lock(&st->mlock);
		st->mstop = true;
		pthread_cond_signal(&st->mcond);
		pthread_mutex_unlock(&st->mlock);
		pthread_join(st->mthread, NULL);
	}
	st->mthread_on = false;
	if (st->sync_set && st->L != NULL && lua_gethook(st->L) == sync_hook)
		lua_sethook(st->L, st->saved_hook, st->saved_mask, st->saved_count);
	st->sync_set = 0;
	if (L != NULL && lua_rawgetp(L, LUA_REGISTRYINDEX, &mirror_key) == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, -2) != 0) {
			lua_pushvalue(L, -2);
			lua_insert(L, -2); /* table, table, probe_fire */
			lua_setfield(L, -2, "fire");
			lua_pop(L, 1);
		}
	}
	if (L != NULL)
		lua_pop(L, 1);
	free(st->mirrors);
	st->mirrors = NULL;
	st->nmirrors = st->cap = 0;
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
		return luaL_error(L, "%s", bc_msg_count(err, sizeof(err), p->fullname, p->argc, n));
	st->json.len = 0;
	for (int i = 0; i < n; i++) {
		int idx = first + i;

		switch ((bc_kind_t)p->kinds[i]) {
		case BC_INT:
		case BC_UINT:
			v[i].i = lua_tointegerx(L, idx, &isnum);
			if (!isnum)
				return bad_value(L, p, idx, i, lazy, "integer expected");
			break;
		case BC_PTR:
			if (lua_isuserdata(L, idx) || lua_isnil(L, idx)) {
				v[i].p = lua_touserdata(L, idx);
				break;
			}
			v[i].i = lua_tointegerx(L, idx, &isnum);
			if (!isnum)
				return bad_value(L, p, idx, i, lazy, "address expected");
			break;
		case BC_FLOAT:
			v[i].d = (double)lua_tonumberx(L, idx, &isnum);
			if (!isnum)
				return bad_value(L, p, idx, i, lazy, "number expected");
			break;
		case BC_STR:
			if (lua_isnil(L, idx))
				v[i].s = NULL;
			else if ((v[i].s = lua_tostring(L, idx)) == NULL)
				return bad_value(L, p, idx, i, lazy, "string expected");
			break;
		case BC_JSON:
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
		if (p->kinds[i] == BC_JSON)
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

/* probe.enabled: one load of the semaphore (the other fields are plain); syncs fire. */
static int probe_index(lua_State *L)
{
	const probe_t *p = lua_touserdata(L, lua_upvalueindex(1));
	bool on;

	if (!lua_rawequal(L, 2, lua_upvalueindex(2)))
		return 0;
	on = usdt_probe_is_enabled(p->probe) > 0;
	if (p->mirror >= 0 && p->st->mirrors != NULL &&
	    on != atomic_load(&p->st->mirrors[p->mirror].on)) {
		lua_rawgetp(L, LUA_REGISTRYINDEX, &mirror_key);
		lua_pushvalue(L, 1);
		if (lua_rawget(L, -2) == LUA_TFUNCTION)
			mirror_set(L, 1, -1, p);
		lua_pop(L, 2);
	}
	lua_pushboolean(L, on);
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
	char msg[512];
	probe_t *p;
	int t;

	if (n > USDT_MAXARGS)
		luaL_error(L, "%s", bc_msg_toomany(msg, sizeof(msg), name));
	if (lua_getfield(L, tidx, "function") != LUA_TNIL && (fn = lua_tostring(L, -1)) == NULL)
		luaL_error(L, "probe %s: function must be a string", name);
	p = lua_newuserdatauv(L, sizeof(*p), 0);
	memset(p, 0, sizeof(*p));
	p->mirror = -1;
	luaL_setmetatable(L, PROBE_MT);
	p->argc = (int)n;
	bc_msg_label(p->fullname, sizeof(p->fullname), pv->name, name);
	for (int i = 0; i < p->argc; i++) {
		const bc_argtype_t *ty;
		const char *s;

		lua_rawgeti(L, tidx, i + 1);
		s = lua_tostring(L, -1);
		if ((ty = bc_argtype(s)) == NULL)
			luaL_error(L, "%s",
				   bc_msg_badtype(msg, sizeof(msg), name, i + 1,
						  s != NULL ? lua_pushfstring(L, "'%s'", s)
							    : luaL_typename(L, -1)));
		types[i] = ty->type;
		p->kinds[i] = ty->kind;
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
	lua_getfield(L, t, "fire");
	mirror_add(L, mstate(L), p, t, -1);
	lua_pop(L, 1);
	mirror_sync(L);	       /* an enabled provider's image was rebuilt: its semaphores moved */
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
	mirror_sync(L); /* tracers that enable() waited for are attached */
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
	mirror_sync(L);
	return 0;
}

/* destroy, __gc and __close: its probes then fire into nothing. */
static int provider_destroy(lua_State *L)
{
	provider_t *pv = checkprovider(L);

	usdt_provider_destroy(pv->prov);
	pv->prov = NULL;
	pv->enabled = false;
	mirror_sync(L);
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
	pb = st->rt.probes[ar->event == LUA_HOOKRET ? BC_RT_RETURN : BC_RT_ENTRY];
	if (usdt_probe_is_enabled(pb) <= 0) {
		/* no tracer now: a coroutine that inherited the hook drops it (the watcher does main's) */
		if (!bc_rt_traced(&st->rt))
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
	/* while sync_hook stands in, the hook it will put back */
	lua_Hook h = st->sync_set ? st->saved_hook : lua_gethook(st->L);

	*on = bc_rt_traced(&st->rt);
	/* a hook of the program's own (debug.sethook) is left alone */
	return (*on && h == NULL) || (!*on && h == hook);
}

/* On the Lua thread, between two VM instructions or inside a C call. */
static void on_signal(int sig)
{
	mstate_t *st = __atomic_load_n(&g_rt, __ATOMIC_ACQUIRE);
	bool on;

	(void)sig;
	if (st == NULL)
		return;
	if (st->sync_set && lua_gethook(st->L) != sync_hook)
		st->sync_set = 0; /* the program set its own hook over it */
	if (hook_change(st, &on)) {
		lua_Hook h = on ? hook : NULL;
		int mask = on ? LUA_MASKCALL | LUA_MASKRET : 0;

		if (st->sync_set)
			st->saved_hook = h, st->saved_mask = mask, st->saved_count = 0;
		else
			lua_sethook(st->L, h, mask, 0);
	}
	if (atomic_load(&st->sync_pending) && !st->sync_set) {
		st->saved_hook = lua_gethook(st->L);
		st->saved_mask = lua_gethookmask(st->L);
		st->saved_count = lua_gethookcount(st->L);
		st->sync_set = 1;
		lua_sethook(st->L, sync_hook, LUA_MASKCOUNT, 1);
	}
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
	if (g_rt != NULL) {
		snprintf(st->rterr, sizeof(st->rterr),
			 "another Lua state of this process has the runtime provider");
		return;
	}
	if (claim_signal() == 0) {
		snprintf(st->rterr, sizeof(st->rterr), "no free real-time signal for the watcher");
		return;
	}
	if (bc_rt_open(&st->rt, "lua_rt", NULL, st->rterr, sizeof(st->rterr)) != 0)
		return;
	if (bc_rt_watch(&st->rt, WATCH_NS, on_watch, st, st->rterr, sizeof(st->rterr)) != 0) {
		bc_rt_close(&st->rt);
		return;
	}
	g_rt_thread = pthread_self();
	__atomic_store_n(&g_rt, st, __ATOMIC_RELEASE);
}

/*
 * Stop the watchers, remove our hooks from the main thread, destroy the
 * provider.  L (NULL at lua_close): the mirrored probes' fire fields
 * become probe_fire for good.
 */
static void runtime_stop(lua_State *L, mstate_t *st)
{
	if (g_rt == st) /* a signal still on its way finds nothing to do */
		__atomic_store_n(&g_rt, NULL, __ATOMIC_RELEASE);
	bc_rt_unwatch(&st->rt); /* in a forked child: no thread to join */
	mirror_stop(L, st);
	if (st->L != NULL && lua_gethook(st->L) == hook)
		lua_sethook(st->L, NULL, 0, 0);
	bc_rt_close(&st->rt); /* its probes stay valid: they fire into nothing */
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

	runtime_stop(NULL, st);
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
		int k = bc_rt_index(name);
		usdt_probe_t *p = st != NULL && k >= 0 ? st->rt.probes[k] : NULL;

		if (k < 0)
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

/*
 * dtrace.runtime_enabled(): the set of runtime probes a tracer has enabled
 * ({["function-entry"] = true, ...}), hook or not: a program tells from it
 * whether a tracer wants the runtime probes before it waits for the hook.
 */
static int l_runtime_enabled(lua_State *L)
{
	const mstate_t *st = mstate(L);

	lua_createtable(L, 0, BC_RT_NPROBES);
	for (int i = 0; st != NULL && i < BC_RT_NPROBES; i++)
		if (st->rt.probes[i] != NULL && usdt_probe_is_enabled(st->rt.probes[i]) > 0) {
			lua_pushboolean(L, 1);
			lua_setfield(L, -2, bc_rt_names[i]);
		}
	return 1;
}

/*
 * dtrace.runtime_wait(timeout [, name, ...]): sleep until runtime_active(name,
 * ...) is true (true) or timeout seconds have passed (false), as Python's
 * dtrace.runtime.wait_active().  The hook comes from the signal the watcher
 * sends, which ends a sleep early.
 */
static int l_runtime_wait(lua_State *L)
{
	lua_Number timeout = luaL_checknumber(L, 1);
	int n = lua_gettop(L);
	struct timespec now, end;

	luaL_argcheck(L, timeout >= 0 && timeout <= 1e9, 1, "a number of seconds, 0 or more");
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)timeout;
	end.tv_nsec += (long)((timeout - (lua_Number)(time_t)timeout) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		lua_pushcfunction(L, l_runtime_active);
		for (int i = 2; i <= n; i++)
			lua_pushvalue(L, i);
		lua_call(L, n - 1, 1); /* an unknown name raises runtime_active's error */
		if (lua_toboolean(L, -1))
			return 1;
		lua_pop(L, 1);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		(void)nanosleep(&(struct timespec){ 0, 5000000L }, NULL);
	}
	lua_pushboolean(L, 0);
	return 1;
}

/* dtrace.runtime_path(): the runtime provider's image, or nil and why there is none. */
static int l_runtime_path(lua_State *L)
{
	const mstate_t *st = mstate(L);

	if (st != NULL && st->rt.prov != NULL && usdt_provider_path(st->rt.prov) != NULL) {
		lua_pushstring(L, usdt_provider_path(st->rt.prov));
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
		runtime_stop(L, st);
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
		{ "runtime_enabled", l_runtime_enabled },
		{ "runtime_wait", l_runtime_wait },
		{ "runtime_path", l_runtime_path },
		{ "runtime_stop", l_runtime_stop },
		{ "json_encode", l_json_encode },
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
		lua_newtable(L); /* probe table -> probe_fire, while the probe lives */
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "k");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &mirror_key);
		if (luaL_loadstring(L, "return function() end") != LUA_OK)
			return lua_error(L);
		lua_call(L, 0, 1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &noop_key);
		luaL_newmetatable(L, PROBE_MT);
		lua_pushcfunction(L, probe_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushliteral(L, PROBE_MT);
		lua_setfield(L, -2, "__metatable");
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
