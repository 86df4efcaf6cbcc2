/*
 * usdt_node.c -- the Node binding's addon: libusdt providers for Node.
 *
 *   const p = new Provider("myapp")                    // module: the program's name
 *   const q = p.probe("query-start", "string", "int")  // a Probe
 *   p.enable()
 *   if (q.enabled) ...                                  // one load of the semaphore, in JS
 *   q.fire("select 1", 3)                               // disabled: no call into the addon
 *   q.fireLazy(() => ["select 1", 3])                   // called only when enabled
 *
 * Argument types: "int" (int64: a Number or a BigInt), "string", "float"
 * (a double, sent as its IEEE-754 bits), "json" (any value, JSON.stringify'd
 * when fired), or a libusdt name ("int8".."uint64", "pointer", "double").
 * Only the stable Node-API (version 8) is used, so one build loads in every
 * Node that has it.  Exports Provider, Probe (made by probe() only),
 * watch(...probes) and watchThread(probes, ms, fn) (libusdt's watcher, for
 * index.js); index.js adds wrap()/instrument(), node_rt and node.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <usdt.h>

#include "bc_usdt.h"

struct probe;

struct provider {
	usdt_provider_t *prov; /* NULL once destroyed */
	char *name;
	int enabled;
	struct probe *probes; /* whose cells follow this provider's image */
};

/*
 * A Probe's state.  Its native methods are made per probe with this as
 * their data, so a call finds it without unwrapping `this`; the Probe and
 * its two native methods each hold a reference, as a method may outlive its
 * Probe (const f = q.fire).
 *
 * The methods a Probe shows are JS closures (see probe_js) over a cell,
 * { v: a Uint16Array of one element }, that calls the native ones only
 * when v[0], the probe's semaphore, is non-zero: a disabled fire is a load
 * V8 compiles inline, with no call into the addon (a Node-API call costs
 * ~10 ns, an inlined typed-array load under 1).  v views the semaphore in
 * the provider's mapped image (usdt_probe_semaphore), or a zeroed array
 * while there is none.  The image moves when the provider is enabled,
 * disabled, rebuilt or destroyed, all of which happen through this addon:
 * each re-points its probes' cells (refresh).  A view left stale (the
 * provider collected by the GC) still reads memory libusdt keeps mapped, and
 * a non-zero read only reaches the native fire, which checks the probe
 * itself.
 */
struct probe {
	usdt_probe_t *probe; /* owned by libusdt; valid for the life of the process */
	char *label;	     /* "myapp:::query-start", for messages */
	int refs;
	int argc;
	const bc_argtype_t *types[USDT_MAXARGS]; /* the declared types (static rows) */
	struct provider *pv;			 /* NULL once the Provider is finalized */
	struct probe *next, **prevp;		 /* in pv->probes */
	napi_ref cell;				 /* { v }, strong: refresh writes v */
	const volatile uint16_t *sema;		 /* what cell.v views; NULL: the zeroed array */
};

/* Per-environment state (main thread and each worker). */
struct addon {
	napi_ref probe_class;
	napi_ref json, stringify; /* JSON, JSON.stringify */
	napi_ref probe_js;	  /* makes a Probe's JS methods (probe_js_src) */
	napi_ref watch_js;	  /* makes watch()'s function (watch_js_src) */
	napi_ref zero;		  /* the Uint16Array(1) of probes with no image */
	int making;		  /* set while probe() constructs a Probe */
};

/*
 * (nfire, nlazy, argc, zero) -> [cell, fire, fireLazy, isEnabled].  fire
 * checks the count always (the native fire throws the error); fireLazy's
 * native function checks fn.  `arguments` is only counted and passed on
 * with apply, which V8 optimizes without materializing it.  The cell holds
 * no reference to the Probe, its methods or its provider.
 */
static const char probe_js_src[] = "(function (nfire, nlazy, argc, zero) {\n"
				   "  'use strict';\n"
				   "  const cell = { v: zero };\n"
				   "  return [cell,\n"
				   "    function fire() {\n"
				   "      if (cell.v[0] !== 0 || arguments.length !== argc)\n"
				   "        return nfire.apply(undefined, arguments);\n"
				   "    },\n"
				   "    function fireLazy(fn) {\n"
				   "      if (cell.v[0] !== 0 || typeof fn !== 'function')\n"
				   "        return nlazy.apply(undefined, arguments);\n"
				   "    },\n"
				   "    function isEnabled() { return cell.v[0] !== 0; }];\n"
				   "})";

/* (cells) -> a function telling whether any cell's semaphore is non-zero. */
static const char watch_js_src[] =
    "(function (cells) {\n"
    "  'use strict';\n"
    "  if (cells.length === 2) {\n"
    "    const a = cells[0], b = cells[1];\n"
    "    return function enabled() { return a.v[0] !== 0 || b.v[0] !== 0; };\n"
    "  }\n"
    "  return function enabled() {\n"
    "    for (let i = 0; i < cells.length; i++)\n"
    "      if (cells[i].v[0] !== 0)\n"
    "        return true;\n"
    "    return false;\n"
    "  };\n"
    "})";

/* ---------------------------------------------------------------- errors */

enum { E_ERROR, E_TYPE, E_RANGE };

static void throwf(napi_env env, int kind, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void throwf(napi_env env, int kind, const char *code, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (kind == E_TYPE)
		napi_throw_type_error(env, code, msg);
	else if (kind == E_RANGE)
		napi_throw_range_error(env, code, msg);
	else
		napi_throw_error(env, code, msg);
}

/* A Node-API call failed: make sure an exception is pending.  Returns NULL. */
static napi_value fail(napi_env env)
{
	const napi_extended_error_info *e = NULL;
	const char *msg = "a Node-API call failed";
	bool pending = false;

	/* first: every Node-API call resets the last error */
	if (napi_get_last_error_info(env, &e) == napi_ok && e != NULL && e->error_message != NULL)
		msg = e->error_message; /* static text */
	if (napi_is_exception_pending(env, &pending) == napi_ok && !pending)
		napi_throw_error(env, NULL, msg);
	return NULL;
}

static napi_value nomem(napi_env env)
{
	napi_throw_error(env, "ENOMEM", "out of memory");
	return NULL;
}

#define TRY(call)                         \
	do {                              \
		if ((call) != napi_ok)    \
			return fail(env); \
	} while (0)

/* A libusdt failure: an Error with libusdt's message, .code (its name) and .errno. */
static napi_value throw_usdt(napi_env env, int code, const usdt_provider_t *prov, const char *what)
{
	napi_value err, msg, cv, num;
	char buf[512];

	bc_msg_usdt(buf, sizeof(buf), what, prov, code);
	TRY(napi_create_string_utf8(env, buf, NAPI_AUTO_LENGTH, &msg));
	TRY(napi_create_string_utf8(env, bc_usdt_codename(code), NAPI_AUTO_LENGTH, &cv));
	TRY(napi_create_error(env, cv, msg, &err));
	TRY(napi_create_int32(env, code, &num));
	TRY(napi_set_named_property(env, err, "errno", num));
	napi_throw(env, err);
	return NULL;
}

/* typeof v (undefined when it cannot be told) */
static napi_valuetype vtype(napi_env env, napi_value v)
{
	napi_valuetype t = napi_undefined;

	napi_typeof(env, v, &t);
	return t;
}

static const char *typeof_name(napi_env env, napi_value v)
{
	static const char *const names[] = { "undefined", "null",   "boolean", "number",
					     "string",	  "symbol", "object",  "function",
					     "external",  "bigint" };
	unsigned t = vtype(env, v);

	return t < sizeof(names) / sizeof(*names) ? names[t] : "?";
}

/* A UTF-8 copy of a JS string, malloc'd (NULL with an exception pending). */
static char *dup_string(napi_env env, napi_value s)
{
	size_t n;
	char *p;

	if (napi_get_value_string_utf8(env, s, NULL, 0, &n) != napi_ok)
		return NULL;
	if ((p = malloc(n + 1)) == NULL)
		return nomem(env), NULL;
	napi_get_value_string_utf8(env, s, p, n + 1, &n);
	return p;
}

/* ---------------------------------------------------------------- firing */

/* The strings of one fire: small ones on the stack, the others malloc'd. */
struct strings {
	size_t used;
	int nheap;
	char *heap[USDT_MAXARGS];
	char buf[1024];
};

static const char *utf8(napi_env env, napi_value s, struct strings *sb)
{
	size_t n;
	char *p;

	if (napi_get_value_string_utf8(env, s, NULL, 0, &n) != napi_ok)
		return NULL;
	if (n < sizeof(sb->buf) - sb->used) {
		p = sb->buf + sb->used;
		sb->used += n + 1;
	} else if ((p = malloc(n + 1)) != NULL) {
		sb->heap[sb->nheap++] = p;
	} else {
		return nomem(env), NULL;
	}
	napi_get_value_string_utf8(env, s, p, n + 1, &n);
	return p;
}

/* An integer argument: a Number holding an integer, or a BigInt, in the declared range. */
static int to_int(napi_env env, const struct probe *pr, int i, napi_value a, napi_valuetype t,
		  usdt_arg_t *v)
{
	const bc_argtype_t *ty = pr->types[i];
	bool lossless = true;
	char msg[512];
	int rc = -1;

	if (t == napi_number) {
		double d;

		napi_get_value_double(env, a, &d);
		rc = bc_int_from_double(ty, d, v);
	} else if (t == napi_bigint && ty->kind == BC_INT) {
		int64_t x;

		napi_get_value_bigint_int64(env, a, &x, &lossless);
		rc = lossless ? bc_int_from_i64(ty, x, v) : -1;
	} else if (t == napi_bigint) {
		uint64_t x;

		napi_get_value_bigint_uint64(env, a, &x, &lossless);
		rc = lossless ? bc_int_from_u64(ty, x, v) : -1;
	} else {
		throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE",
		       "argument %d of %s: expected a number or a bigint, got %s", i + 1, pr->label,
		       typeof_name(env, a));
		return -1;
	}
	if (rc != 0)
		throwf(env, E_RANGE, "ERR_OUT_OF_RANGE", "%s",
		       bc_msg_range(msg, sizeof(msg), pr->label, i + 1, ty));
	return rc;
}

/* JSON.stringify(a) as UTF-8 (NULL for undefined); a throw becomes a TypeError naming the argument. */
static int to_json(napi_env env, const struct probe *pr, int i, napi_value a, struct strings *sb,
		   usdt_arg_t *v)
{
	struct addon *ad;
	napi_value json, fn, r, e, m;
	char msg[256] = "";
	size_t n;

	if (napi_get_instance_data(env, (void **)&ad) != napi_ok ||
	    napi_get_reference_value(env, ad->json, &json) != napi_ok ||
	    napi_get_reference_value(env, ad->stringify, &fn) != napi_ok)
		return fail(env), -1;
	if (napi_call_function(env, json, fn, 1, &a, &r) != napi_ok) {
		if (napi_get_and_clear_last_exception(env, &e) == napi_ok &&
		    napi_coerce_to_string(env, e, &m) == napi_ok)
			napi_get_value_string_utf8(env, m, msg, sizeof(msg), &n);
		throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE", "argument %d of %s: %s", i + 1,
		       pr->label, msg);
		return -1;
	}
	if (vtype(env, r) == napi_undefined) { /* the value was a function, a symbol */
		v->s = NULL;
		return 0;
	}
	return (v->s = utf8(env, r, sb)) != NULL ? 0 : -1;
}

/* Convert argv to the probe's values and fire; the probe is enabled. */
static napi_value fire_values(napi_env env, const struct probe *pr, const napi_value *argv)
{
	usdt_arg_t v[USDT_MAXARGS] = { { 0 } };
	struct strings sb;
	int rc = 0;

	sb.used = 0, sb.nheap = 0;
	for (int i = 0; i < pr->argc && rc == 0; i++) {
		napi_valuetype t;

		if (napi_typeof(env, argv[i], &t) != napi_ok) {
			rc = -1, fail(env);
			break;
		}
		switch ((bc_kind_t)pr->types[i]->kind) {
		case BC_INT:
		case BC_UINT:
		case BC_PTR: rc = to_int(env, pr, i, argv[i], t, &v[i]); break;
		case BC_FLOAT:
			if (t == napi_number)
				napi_get_value_double(env, argv[i], &v[i].d);
			else
				rc = -1, throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE",
						"argument %d of %s: expected a number, got %s",
						i + 1, pr->label, typeof_name(env, argv[i]));
			break;
		case BC_STR:
			if (t == napi_string)
				rc = (v[i].s = utf8(env, argv[i], &sb)) != NULL ? 0 : -1;
			else if (t != napi_null && t != napi_undefined) /* a NULL pointer */
				rc = -1, throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE",
						"argument %d of %s: expected a string, got %s",
						i + 1, pr->label, typeof_name(env, argv[i]));
			break;
		case BC_JSON: rc = to_json(env, pr, i, argv[i], &sb, &v[i]); break;
		}
	}
	if (rc == 0 && (rc = usdt_probe_fire(pr->probe, pr->argc, v)) == -EUSDT_DESTROYED)
		rc = 0; /* a tracer raced with destroy() */
	while (sb.nheap > 0)
		free(sb.heap[--sb.nheap]);
	if (rc < -1)
		return throw_usdt(env, -rc, NULL, pr->label);
	return NULL;
}

static const napi_type_tag probe_tag = { 0x7573647470726f62ULL, 0x6e6f64652d617069ULL };
static const napi_type_tag provider_tag = { 0x7573647470726f76ULL, 0x6e6f64652d617069ULL };

/* The state of a Probe passed as an argument. */
static struct probe *probe_of(napi_env env, napi_value self, const char *what)
{
	bool is = false;
	void *pr = NULL;

	if (napi_check_object_type_tag(env, self, &probe_tag, &is) == napi_ok && is &&
	    napi_unwrap(env, self, &pr) == napi_ok)
		return pr;
	throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE", "%s takes Probes", what);
	return NULL;
}

static napi_value count_error(napi_env env, const struct probe *pr, size_t n)
{
	char msg[512];

	throwf(env, E_TYPE, "EUSDT_ARGCOUNT", "%s",
	       bc_msg_count(msg, sizeof(msg), pr->label, pr->argc, (long)n));
	return NULL;
}

/* fire(...args): the count is checked always, the values only when a tracer is attached. */
static napi_value Probe_fire(napi_env env, napi_callback_info info)
{
	napi_value argv[USDT_MAXARGS];
	size_t argc = USDT_MAXARGS;
	struct probe *pr;

	TRY(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&pr));
	if (argc != (size_t)pr->argc)
		return count_error(env, pr, argc);
	if (usdt_probe_is_enabled(pr->probe) <= 0)
		return NULL;
	return fire_values(env, pr, argv);
}

/* fireLazy(fn): fn() is called only when enabled; it returns the arguments as an array. */
static napi_value Probe_fireLazy(napi_env env, napi_callback_info info)
{
	napi_value argv[USDT_MAXARGS], fn, r, undef;
	size_t argc = 1;
	uint32_t n;
	bool is;
	struct probe *pr;

	TRY(napi_get_cb_info(env, info, &argc, &fn, NULL, (void **)&pr));
	if (argc < 1 || vtype(env, fn) != napi_function) {
		throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE", "%s: fireLazy() takes a function",
		       pr->label);
		return NULL;
	}
	if (usdt_probe_is_enabled(pr->probe) <= 0)
		return NULL;
	TRY(napi_get_undefined(env, &undef));
	TRY(napi_call_function(env, undef, fn, 0, NULL, &r));
	TRY(napi_is_array(env, r, &is));
	if (!is) {
		throwf(env, E_TYPE, "ERR_INVALID_RETURN_VALUE",
		       "%s: the function given to fireLazy() must return an array of the %d "
		       "argument%s, not %s",
		       pr->label, pr->argc, pr->argc == 1 ? "" : "s", typeof_name(env, r));
		return NULL;
	}
	TRY(napi_get_array_length(env, r, &n));
	if (n != (uint32_t)pr->argc)
		return count_error(env, pr, n);
	for (uint32_t i = 0; i < n; i++)
		TRY(napi_get_element(env, r, i, &argv[i]));
	return fire_values(env, pr, argv);
}

/* Probes come from Provider.prototype.probe() only. */
static napi_value Probe_new(napi_env env, napi_callback_info info)
{
	struct addon *ad;
	napi_value self;

	TRY(napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
	TRY(napi_get_instance_data(env, (void **)&ad));
	if (!ad->making) {
		napi_throw_type_error(env, "ERR_ILLEGAL_CONSTRUCTOR",
				      "a Probe is made by provider.probe(name, ...types)");
		return NULL;
	}
	return self;
}

static void probe_unref(napi_env env, void *data, void *hint)
{
	struct probe *pr = data;

	(void)hint;
	if (--pr->refs > 0)
		return;
	if (pr->prevp != NULL) { /* in its provider's list */
		if ((*pr->prevp = pr->next) != NULL)
			pr->next->prevp = pr->prevp;
	}
	if (pr->cell != NULL)
		napi_delete_reference(env, pr->cell);
	free(pr->label);
	free(pr);
}

/* The cell's view: the semaphore at s (never written), or the zeroed array. */
static int point_cell(napi_env env, const struct addon *ad, struct probe *pr,
		      const volatile uint16_t *s)
{
	napi_value cell, ab, v;

	if (napi_get_reference_value(env, pr->cell, &cell) != napi_ok)
		return -1;
	if (s == NULL) {
		if (napi_get_reference_value(env, ad->zero, &v) != napi_ok)
			return -1;
	} else if (napi_create_external_arraybuffer(env, (void *)(uintptr_t)s, sizeof(*s), NULL,
						    NULL, &ab) != napi_ok ||
		   napi_create_typedarray(env, napi_uint16_array, 1, ab, 0, &v) != napi_ok) {
		return -1;
	}
	if (napi_set_named_property(env, cell, "v", v) != napi_ok)
		return -1;
	pr->sema = s;
	return 0;
}

/*
 * After the provider's image may have moved (enable, disable, a probe
 * added, destroy): point each probe's cell at its semaphore now.  On
 * failure an exception is pending and the cells not reached view the old
 * words, which read 0 (a retired image) or another probe's (and the native
 * fire then finds its own probe disabled): nothing crashes.
 */
static int refresh(napi_env env, struct provider *pv)
{
	struct addon *ad;

	if (napi_get_instance_data(env, (void **)&ad) != napi_ok)
		return fail(env), -1;
	for (struct probe *pr = pv->probes; pr != NULL; pr = pr->next) {
		const volatile uint16_t *s =
		    pv->prov != NULL ? usdt_probe_semaphore(pr->probe) : NULL;

		if (s != pr->sema && point_cell(env, ad, pr, s) != 0)
			return fail(env), -1;
	}
	return 0;
}

/* watch(...probes): a function telling, in JS and no native call, whether any is enabled. */
static napi_value watch(napi_env env, napi_callback_info info)
{
	napi_value argv[16], arr, cell, fn, self, r;
	size_t argc = 16;
	struct addon *ad;
	struct probe *pr;

	TRY(napi_get_cb_info(env, info, &argc, argv, &self, NULL));
	if (argc > 16) {
		napi_throw_range_error(env, "ERR_OUT_OF_RANGE", "watch() takes at most 16 probes");
		return NULL;
	}
	TRY(napi_get_instance_data(env, (void **)&ad));
	TRY(napi_create_array_with_length(env, argc, &arr));
	for (size_t i = 0; i < argc; i++) {
		if ((pr = probe_of(env, argv[i], "watch()")) == NULL)
			return NULL;
		TRY(napi_get_reference_value(env, pr->cell, &cell));
		TRY(napi_set_element(env, arr, (uint32_t)i, cell));
	}
	TRY(napi_get_reference_value(env, ad->watch_js, &fn));
	TRY(napi_call_function(env, self, fn, 1, &arr, &r));
	return r;
}

/* ---------------------------------------------------------------- the watcher thread */

/*
 * watchThread(probes, intervalMs, callback): libusdt's watcher (a thread
 * reading the probes' semaphores every interval) for a runtime provider
 * whose hook lives in JS (index.js's node provider subscribes to
 * diagnostics_channel).  The thread cannot run JS: when the state it sees
 * changes (which of the probes are enabled) it posts callback() to
 * the event loop through a thread-safe function, and callback reads the
 * state itself (watch()).  Returns an object whose stop() joins the thread.
 * The thread-safe function is unref'd: the watcher keeps no program alive.
 */
struct watcher {
	usdt_watch_t *w; /* NULL once stopped */
	napi_threadsafe_function tsfn;
	usdt_probe_t *probes[16];
	int n;
	unsigned last; /* the probes enabled at the last post; the watcher thread's own */
	int hooked;    /* watcher_cleanup is registered */
};

/*
 * On the watcher thread: post when the set of enabled probes changed (a
 * runtime may hook per probe: a tracer enables them one after another).
 */
static void watcher_look(bool on, void *arg)
{
	struct watcher *wa = arg;
	unsigned mask = on ? bc_enabled_mask(wa->probes, wa->n) : 0;

	if (mask == wa->last)
		return;
	wa->last = mask;
	napi_call_threadsafe_function(wa->tsfn, NULL, napi_tsfn_nonblocking);
}

/* On the main thread: callback(); an exception it throws is the program's. */
static void watcher_call(napi_env env, napi_value cb, void *context, void *data)
{
	napi_value undef;

	(void)context, (void)data;
	if (env == NULL || cb == NULL || napi_get_undefined(env, &undef) != napi_ok)
		return; /* the environment is going away */
	napi_call_function(env, undef, cb, 0, NULL, NULL);
}

static void watcher_stop(struct watcher *wa)
{
	if (wa->w == NULL)
		return;
	usdt_watch_stop(wa->w); /* joined: no post after this */
	wa->w = NULL;
	napi_release_threadsafe_function(wa->tsfn, napi_tsfn_abort);
}

static void watcher_cleanup(void *arg)
{
	struct watcher *wa = arg;

	wa->hooked = 0;
	watcher_stop(wa);
}

static void watcher_finalize(napi_env env, void *data, void *hint)
{
	struct watcher *wa = data;

	(void)hint;
	watcher_stop(wa);
	if (wa->hooked)
		napi_remove_env_cleanup_hook(env, watcher_cleanup, wa);
	free(wa);
}

static const napi_type_tag watcher_tag = { 0x7573647477617463ULL, 0x6e6f64652d617069ULL };

static napi_value watcher_stop_js(napi_env env, napi_callback_info info)
{
	napi_value self;
	struct watcher *wa = NULL;
	bool is = false;

	TRY(napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
	if (napi_check_object_type_tag(env, self, &watcher_tag, &is) != napi_ok || !is ||
	    napi_unwrap(env, self, (void **)&wa) != napi_ok || wa == NULL) {
		napi_throw_type_error(env, "ERR_INVALID_THIS", "stop() of another object");
		return NULL;
	}
	watcher_stop(wa);
	return NULL;
}

static napi_value watch_thread(napi_env env, napi_callback_info info)
{
	napi_value argv[3], obj, name, fn;
	size_t argc = 3;
	uint32_t n = 0;
	double ms = 0;
	long ns = 0;
	bool is = false;
	struct watcher *wa;
	int err = 0;

	TRY(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
	if (argc < 3 || napi_is_array(env, argv[0], &is) != napi_ok || !is ||
	    vtype(env, argv[1]) != napi_number || vtype(env, argv[2]) != napi_function) {
		napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE",
				      "watchThread(probes, intervalMs, callback): an array of "
				      "Probes, a number and a function");
		return NULL;
	}
	TRY(napi_get_array_length(env, argv[0], &n));
	TRY(napi_get_value_double(env, argv[1], &ms));
	if (n < 1 || n > 16 || bc_interval_ns(ms, 1e6, &ns) != 0) {
		throwf(env, E_RANGE, "ERR_OUT_OF_RANGE",
		       "watchThread(): 1 to 16 probes (%u given), an interval of 1 to 60000 ms", n);
		return NULL;
	}
	if ((wa = calloc(1, sizeof(*wa))) == NULL)
		return nomem(env);
	for (uint32_t i = 0; i < n; i++) {
		napi_value v;
		struct probe *pr;

		if (napi_get_element(env, argv[0], i, &v) != napi_ok ||
		    (pr = probe_of(env, v, "watchThread()")) == NULL) {
			free(wa);
			return fail(env);
		}
		wa->probes[i] = pr->probe;
	}
	wa->n = (int)n;
	if (napi_create_object(env, &obj) != napi_ok ||
	    napi_create_string_utf8(env, "dtrace-usdt watcher", NAPI_AUTO_LENGTH, &name) !=
		napi_ok ||
	    napi_create_threadsafe_function(env, argv[2], NULL, name, 0, 1, NULL, NULL, NULL,
					    watcher_call, &wa->tsfn) != napi_ok) {
		free(wa);
		return fail(env);
	}
	if (napi_unref_threadsafe_function(env, wa->tsfn) != napi_ok ||
	    napi_type_tag_object(env, obj, &watcher_tag) != napi_ok ||
	    napi_wrap(env, obj, wa, watcher_finalize, NULL, NULL) != napi_ok) {
		napi_release_threadsafe_function(wa->tsfn, napi_tsfn_abort);
		free(wa);
		return fail(env);
	}
	/* from now on the finalizer frees wa */
	TRY(napi_add_env_cleanup_hook(env, watcher_cleanup, wa));
	wa->hooked = 1;
	TRY(napi_create_function(env, "stop", NAPI_AUTO_LENGTH, watcher_stop_js, NULL, &fn));
	TRY(napi_set_named_property(env, obj, "stop", fn));
	wa->w = usdt_watch_start(wa->probes, (int)n, ns, watcher_look, wa, &err);
	if (wa->w == NULL) {
		napi_release_threadsafe_function(wa->tsfn, napi_tsfn_abort);
		return throw_usdt(env, -err, NULL, "watchThread");
	}
	return obj;
}

/* ---------------------------------------------------------------- Provider */

static void Provider_finalize(napi_env env, void *data, void *hint)
{
	struct provider *pv = data;

	(void)env, (void)hint;
	/* its probes' cells keep their views: libusdt keeps the memory mapped */
	for (struct probe *pr = pv->probes; pr != NULL; pr = pr->next)
		pr->pv = NULL, pr->prevp = NULL;
	usdt_provider_destroy(pv->prov);
	free(pv->name);
	free(pv);
}

/* new Provider(name[, module]) */
static napi_value Provider_new(napi_env env, napi_callback_info info)
{
	napi_value argv[2], self, target;
	size_t argc = 2;
	struct provider *pv;
	char *name = NULL, *module = NULL;
	napi_valuetype mt = napi_undefined;
	int err = 0;

	TRY(napi_get_cb_info(env, info, &argc, argv, &self, NULL));
	TRY(napi_get_new_target(env, info, &target));
	if (target == NULL) {
		napi_throw_type_error(env, "ERR_CONSTRUCT_CALL_REQUIRED",
				      "Provider must be called with new");
		return NULL;
	}
	if (argc < 1 || vtype(env, argv[0]) != napi_string) {
		throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE",
		       "new Provider(name[, module]): name must be a string, not %s",
		       argc < 1 ? "missing" : typeof_name(env, argv[0]));
		return NULL;
	}
	if (argc > 1 && (mt = vtype(env, argv[1])) != napi_string && mt != napi_undefined &&
	    mt != napi_null) {
		throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE",
		       "new Provider(name[, module]): module must be a string, not %s",
		       typeof_name(env, argv[1]));
		return NULL;
	}
	if ((name = dup_string(env, argv[0])) == NULL ||
	    (argc > 1 && mt == napi_string && (module = dup_string(env, argv[1])) == NULL) ||
	    (pv = calloc(1, sizeof(*pv))) == NULL) {
		free(name), free(module);
		return name == NULL || (mt == napi_string && module == NULL) ? NULL : nomem(env);
	}
	pv->name = name;
	pv->prov = usdt_provider_create(name, module, NULL, &err);
	free(module);
	if (pv->prov == NULL ||
	    napi_wrap(env, self, pv, Provider_finalize, NULL, NULL) != napi_ok) {
		if (pv->prov == NULL)
			throw_usdt(env, -err, NULL, "Provider");
		Provider_finalize(env, pv, NULL);
		return fail(env);
	}
	TRY(napi_type_tag_object(env, self, &provider_tag));
	return self;
}

static struct provider *this_provider(napi_env env, napi_callback_info info, size_t *argc,
				      napi_value *argv, napi_value *self, int live)
{
	struct provider *pv = NULL;
	bool is = false;

	if (napi_get_cb_info(env, info, argc, argv, self, NULL) != napi_ok ||
	    napi_check_object_type_tag(env, *self, &provider_tag, &is) != napi_ok || !is ||
	    napi_unwrap(env, *self, (void **)&pv) != napi_ok) {
		napi_throw_type_error(env, "ERR_INVALID_THIS",
				      "a Provider method called on another object");
		return NULL;
	}
	if (live && pv->prov == NULL) {
		throw_usdt(env, EUSDT_DESTROYED, NULL, pv->name);
		return NULL;
	}
	return pv;
}

/*
 * A new Probe's own read-only properties: name, provider, and its methods
 * fire, fireLazy, isEnabled (JS closures over its cell and its native
 * fire and fireLazy: probe_js_src).  Only data properties: every Probe
 * then has the same V8 map, so a call site serving many probes stays fast
 * (an own accessor per probe would give each its own map).  The probe
 * joins its provider's list, so that refresh() points its cell.
 */
static napi_value define_probe(napi_env env, napi_value obj, struct probe *pr, napi_value name,
			       napi_value provider, struct provider *pv)
{
	napi_property_descriptor d[] = {
		{ "name", NULL, NULL, NULL, NULL, name, napi_enumerable, NULL },
		{ "provider", NULL, NULL, NULL, NULL, provider, napi_enumerable, NULL },
		{ "fire", NULL, NULL, NULL, NULL, NULL, napi_default, NULL },
		{ "fireLazy", NULL, NULL, NULL, NULL, NULL, napi_default, NULL },
		{ "isEnabled", NULL, NULL, NULL, NULL, NULL, napi_default, NULL },
	};
	napi_callback cb[] = { Probe_fire, Probe_fireLazy };
	napi_value argv[4], fn, made, cell;
	struct addon *ad;

	for (int i = 0; i < 2; i++) {
		TRY(napi_create_function(env, d[2 + i].utf8name, NAPI_AUTO_LENGTH, cb[i], pr,
					 &argv[i]));
		TRY(napi_add_finalizer(env, argv[i], pr, probe_unref, NULL, NULL));
		pr->refs++;
	}
	TRY(napi_get_instance_data(env, (void **)&ad));
	TRY(napi_create_int32(env, pr->argc, &argv[2]));
	TRY(napi_get_reference_value(env, ad->zero, &argv[3]));
	TRY(napi_get_reference_value(env, ad->probe_js, &fn));
	TRY(napi_call_function(env, obj, fn, 4, argv, &made));
	TRY(napi_get_element(env, made, 0, &cell));
	for (uint32_t i = 0; i < 3; i++)
		TRY(napi_get_element(env, made, i + 1, &d[2 + i].value));
	TRY(napi_create_reference(env, cell, 1, &pr->cell));
	pr->pv = pv;
	if ((pr->next = pv->probes) != NULL)
		pr->next->prevp = &pr->next;
	pr->prevp = &pv->probes;
	pv->probes = pr;
	TRY(napi_define_properties(env, obj, sizeof(d) / sizeof(d[0]), d));
	TRY(napi_type_tag_object(env, obj, &probe_tag));
	return obj;
}

/* probe(name, ...types[, {function}]): "query-start" is query__start in the notes. */
static napi_value Provider_probe(napi_env env, napi_callback_info info)
{
	napi_value argv[USDT_MAXARGS + 2], self, cls, obj, v;
	size_t argc = USDT_MAXARGS + 2, ntypes, n;
	usdt_argtype_t types[USDT_MAXARGS];
	struct provider *pv;
	struct probe *pr = NULL;
	struct addon *ad;
	char *name = NULL, *function = NULL;
	napi_status st;

	if ((pv = this_provider(env, info, &argc, argv, &self, 1)) == NULL)
		return NULL;
	if (argc < 1 || vtype(env, argv[0]) != napi_string) {
		napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE",
				      "probe(name, ...types): name must be a string");
		return NULL;
	}
	if ((name = dup_string(env, argv[0])) == NULL)
		return NULL;
	ntypes = argc - 1;
	/* argc is the call's count: argv holds no more than its size */
	if (argc <= sizeof(argv) / sizeof(argv[0]) && argc > 1 &&
	    vtype(env, argv[argc - 1]) == napi_object) { /* { function } */
		bool has = false;

		ntypes--;
		if (napi_has_named_property(env, argv[argc - 1], "function", &has) != napi_ok)
			goto napi;
		if (has) {
			if (napi_get_named_property(env, argv[argc - 1], "function", &v) != napi_ok)
				goto napi;
			if (vtype(env, v) != napi_string) {
				napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE",
						      "probe(): options.function must be a string");
				goto out;
			}
			if ((function = dup_string(env, v)) == NULL)
				goto out;
		}
	}
	if (ntypes > USDT_MAXARGS) {
		char msg[512];

		throwf(env, E_RANGE, "EUSDT_TOOMANYARGS", "%s",
		       bc_msg_toomany(msg, sizeof(msg), name));
		goto out;
	}
	if ((pr = calloc(1, sizeof(*pr))) == NULL)
		goto nomem;
	pr->argc = (int)ntypes;
	for (size_t i = 0; i < ntypes; i++) {
		char t[32] = "", shown[66] = "", msg[512];
		size_t tn = 0;
		napi_value s;

		if (vtype(env, argv[i + 1]) == napi_string)
			napi_get_value_string_utf8(env, argv[i + 1], t, sizeof(t), &tn);
		if (tn < sizeof(t) - 1 && (pr->types[i] = bc_argtype(t)) != NULL) {
			types[i] = pr->types[i]->type;
			continue;
		}
		if (napi_coerce_to_string(env, argv[i + 1], &s) == napi_ok)
			napi_get_value_string_utf8(env, s, shown + 1, sizeof(shown) - 2,
						   &(size_t){ 0 });
		napi_get_and_clear_last_exception(env, &(napi_value){ 0 });
		shown[0] = '\'';
		strcat(shown, "'");
		throwf(env, E_TYPE, "ERR_INVALID_ARG_TYPE", "%s",
		       bc_msg_badtype(msg, sizeof(msg), name, (int)i + 1, shown));
		goto out;
	}
	n = strlen(pv->name) + strlen(name) + 4;
	if ((pr->label = malloc(n)) == NULL)
		goto nomem;
	snprintf(pr->label, n, "%s:::%s", pv->name, name);
	/* libusdt writes "-" as "__" in the note */
	pr->probe = usdt_probe_create(pv->prov, function, name, pr->argc, types);
	if (pr->probe == NULL) {
		throw_usdt(env, usdt_provider_errno(pv->prov), pv->prov, "probe");
		goto out;
	}
	if ((st = napi_get_instance_data(env, (void **)&ad)) != napi_ok ||
	    (st = napi_get_reference_value(env, ad->probe_class, &cls)) != napi_ok)
		goto napi;
	ad->making = 1;
	st = napi_new_instance(env, cls, 0, NULL, &obj);
	ad->making = 0;
	if (st != napi_ok || (st = napi_wrap(env, obj, pr, probe_unref, NULL, NULL)) != napi_ok)
		goto napi;
	pr->refs = 1;
	if ((obj = define_probe(env, obj, pr, argv[0], self, pv)) == NULL)
		fail(env);
	else if (refresh(env, pv) != 0) /* an enabled provider's image was rebuilt */
		obj = NULL;
	pr = NULL; /* the Probe owns it now */
	free(name), free(function);
	return obj;
nomem:
	nomem(env);
	goto out;
napi:
	fail(env);
out:
	if (pr != NULL)
		free(pr->label);
	free(pr), free(name), free(function);
	return NULL;
}

static napi_value Provider_enable(napi_env env, napi_callback_info info)
{
	napi_value self;
	struct provider *pv;
	int rc;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 1)) == NULL)
		return NULL;
	if ((rc = usdt_provider_enable(pv->prov)) != 0)
		return throw_usdt(env, -rc, pv->prov, "enable");
	pv->enabled = 1;
	return refresh(env, pv) == 0 ? self : NULL;
}

static napi_value Provider_disable(napi_env env, napi_callback_info info)
{
	napi_value self;
	struct provider *pv;
	int rc;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 1)) == NULL)
		return NULL;
	if ((rc = usdt_provider_disable(pv->prov)) != 0)
		return throw_usdt(env, -rc, pv->prov, "disable");
	pv->enabled = 0;
	return refresh(env, pv) == 0 ? self : NULL;
}

/* destroy(): disable and free; the probes then do nothing.  Idempotent. */
static napi_value Provider_destroy(napi_env env, napi_callback_info info)
{
	napi_value self;
	struct provider *pv;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 0)) == NULL)
		return NULL;
	usdt_provider_destroy(pv->prov);
	pv->prov = NULL;
	pv->enabled = 0;
	refresh(env, pv);
	return NULL;
}

static napi_value Provider_path(napi_env env, napi_callback_info info)
{
	napi_value self, v;
	struct provider *pv;
	const char *p;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 0)) == NULL)
		return NULL;
	if (pv->prov == NULL || (p = usdt_provider_path(pv->prov)) == NULL)
		TRY(napi_get_null(env, &v));
	else
		TRY(napi_create_string_utf8(env, p, NAPI_AUTO_LENGTH, &v));
	return v;
}

static napi_value Provider_enabled(napi_env env, napi_callback_info info)
{
	napi_value self, v;
	struct provider *pv;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 0)) == NULL)
		return NULL;
	TRY(napi_get_boolean(env, pv->prov != NULL && pv->enabled, &v));
	return v;
}

static napi_value Provider_destroyed(napi_env env, napi_callback_info info)
{
	napi_value self, v;
	struct provider *pv;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 0)) == NULL)
		return NULL;
	TRY(napi_get_boolean(env, pv->prov == NULL, &v));
	return v;
}

static napi_value Provider_name(napi_env env, napi_callback_info info)
{
	napi_value self, v;
	struct provider *pv;

	if ((pv = this_provider(env, info, NULL, NULL, &self, 0)) == NULL)
		return NULL;
	TRY(napi_create_string_utf8(env, pv->name, NAPI_AUTO_LENGTH, &v));
	return v;
}

/* ---------------------------------------------------------------- module */

static void addon_free(napi_env env, void *data, void *hint)
{
	struct addon *ad = data;

	(void)hint;
	napi_delete_reference(env, ad->probe_class);
	napi_delete_reference(env, ad->json);
	napi_delete_reference(env, ad->stringify);
	napi_delete_reference(env, ad->probe_js);
	napi_delete_reference(env, ad->watch_js);
	napi_delete_reference(env, ad->zero);
	free(ad);
}

static napi_value init(napi_env env, napi_value exports)
{
	/* name, -, method, getter, -, -, attributes, - */
	static const napi_property_descriptor provider_props[] = {
		{ "probe", NULL, Provider_probe, NULL, NULL, NULL, napi_default_method, NULL },
		{ "enable", NULL, Provider_enable, NULL, NULL, NULL, napi_default_method, NULL },
		{ "disable", NULL, Provider_disable, NULL, NULL, NULL, napi_default_method, NULL },
		{ "destroy", NULL, Provider_destroy, NULL, NULL, NULL, napi_default_method, NULL },
		{ "name", NULL, NULL, Provider_name, NULL, NULL, napi_configurable, NULL },
		{ "path", NULL, NULL, Provider_path, NULL, NULL, napi_configurable, NULL },
		{ "enabled", NULL, NULL, Provider_enabled, NULL, NULL, napi_configurable, NULL },
		{ "destroyed", NULL, NULL, Provider_destroyed, NULL, NULL, napi_configurable,
		  NULL },
	};
	static const char enabled_js[] =
	    "(function (Probe) { Object.defineProperty(Probe.prototype, 'enabled', "
	    "{ get() { return this.isEnabled(); }, configurable: true }); })";
	napi_value provider, probe, global, json, stringify, fn, v;
	struct addon *ad;

	if ((ad = calloc(1, sizeof(*ad))) == NULL)
		return nomem(env);
	if (napi_set_instance_data(env, ad, addon_free, NULL) != napi_ok) {
		free(ad);
		return fail(env);
	}
	TRY(napi_define_class(env, "Provider", NAPI_AUTO_LENGTH, Provider_new, NULL,
			      sizeof(provider_props) / sizeof(provider_props[0]), provider_props,
			      &provider));
	TRY(napi_define_class(env, "Probe", NAPI_AUTO_LENGTH, Probe_new, NULL, 0, NULL, &probe));
	/* Probe.prototype.enabled, in JS so that V8 inlines it into its callers */
	TRY(napi_create_string_utf8(env, enabled_js, NAPI_AUTO_LENGTH, &v));
	TRY(napi_run_script(env, v, &fn));
	TRY(napi_call_function(env, probe, fn, 1, &probe, &v));
	TRY(napi_get_global(env, &global));
	TRY(napi_get_named_property(env, global, "JSON", &json));
	TRY(napi_get_named_property(env, json, "stringify", &stringify));
	TRY(napi_create_reference(env, probe, 1, &ad->probe_class));
	TRY(napi_create_reference(env, json, 1, &ad->json));
	TRY(napi_create_reference(env, stringify, 1, &ad->stringify));
	TRY(napi_create_string_utf8(env, probe_js_src, NAPI_AUTO_LENGTH, &v));
	TRY(napi_run_script(env, v, &fn));
	TRY(napi_create_reference(env, fn, 1, &ad->probe_js));
	TRY(napi_create_string_utf8(env, watch_js_src, NAPI_AUTO_LENGTH, &v));
	TRY(napi_run_script(env, v, &fn));
	TRY(napi_create_reference(env, fn, 1, &ad->watch_js));
	TRY(napi_create_arraybuffer(env, 2, NULL, &v));
	TRY(napi_create_typedarray(env, napi_uint16_array, 1, v, 0, &v));
	TRY(napi_create_reference(env, v, 1, &ad->zero));
	TRY(napi_create_function(env, "watch", NAPI_AUTO_LENGTH, watch, NULL, &fn));
	TRY(napi_set_named_property(env, exports, "Provider", provider));
	TRY(napi_set_named_property(env, exports, "Probe", probe));
	TRY(napi_set_named_property(env, exports, "watch", fn));
	TRY(napi_create_function(env, "watchThread", NAPI_AUTO_LENGTH, watch_thread, NULL, &fn));
	TRY(napi_set_named_property(env, exports, "watchThread", fn));
	return exports;
}

NAPI_MODULE_EXPORT int32_t NODE_API_MODULE_GET_API_VERSION(void);
NAPI_MODULE_INIT()
{
	return init(env, exports);
}
