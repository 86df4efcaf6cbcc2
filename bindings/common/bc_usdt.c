/*
 * bc_usdt.c -- the provider halves' shared core (bc_usdt.h): the argument
 * type table, integer ranges, messages, and the runtime provider.
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bc_usdt.h"

/* ---------------------------------------------------------------- types */

static const bc_argtype_t types[] = {
	{ "int", USDT_ARG_INT64, BC_INT, 64 },
	{ "string", USDT_ARG_STRING, BC_STR, 0 },
	{ "float", USDT_ARG_DOUBLE, BC_FLOAT, 0 },
	{ "json", USDT_ARG_STRING, BC_JSON, 0 },
	{ "int8", USDT_ARG_INT8, BC_INT, 8 },
	{ "uint8", USDT_ARG_UINT8, BC_UINT, 8 },
	{ "int16", USDT_ARG_INT16, BC_INT, 16 },
	{ "uint16", USDT_ARG_UINT16, BC_UINT, 16 },
	{ "int32", USDT_ARG_INT32, BC_INT, 32 },
	{ "uint32", USDT_ARG_UINT32, BC_UINT, 32 },
	{ "int64", USDT_ARG_INT64, BC_INT, 64 },
	{ "uint64", USDT_ARG_UINT64, BC_UINT, 64 },
	{ "pointer", USDT_ARG_POINTER, BC_PTR, 64 },
	{ "double", USDT_ARG_DOUBLE, BC_FLOAT, 0 },
	/* aliases: Python's names of its types, and C's */
	{ "str", USDT_ARG_STRING, BC_STR, 0 },
	{ "char *", USDT_ARG_STRING, BC_STR, 0 },
};

const bc_argtype_t *bc_argtype(const char *name)
{
	for (size_t k = 0; name != NULL && k < sizeof(types) / sizeof(types[0]); k++)
		if (strcmp(name, types[k].name) == 0)
			return &types[k];
	return NULL;
}

static bool is_signed(const bc_argtype_t *t)
{
	return t->kind == BC_INT;
}

static bool is_integer(const bc_argtype_t *t)
{
	return t != NULL && (t->kind == BC_INT || t->kind == BC_UINT || t->kind == BC_PTR) &&
	       t->bits >= 8 && t->bits <= 64;
}

int bc_int_from_double(const bc_argtype_t *t, double d, usdt_arg_t *v)
{
	int b;

	if (!is_integer(t) || d != trunc(d)) /* NaN too */
		return -1;
	b = t->bits;
	if (is_signed(t)) {
		if (d < -ldexp(1, b - 1) || d >= ldexp(1, b - 1))
			return -1;
		v->i = (int64_t)d;
	} else {
		if (d < 0 || d >= ldexp(1, b))
			return -1;
		v->u = (uint64_t)d;
	}
	return 0;
}

int bc_int_from_i64(const bc_argtype_t *t, int64_t i, usdt_arg_t *v)
{
	if (!is_integer(t))
		return -1;
	if (!is_signed(t))
		return i < 0 ? -1 : bc_int_from_u64(t, (uint64_t)i, v);
	if (t->bits < 64 &&
	    (i < -((int64_t)1 << (t->bits - 1)) || i >= (int64_t)1 << (t->bits - 1)))
		return -1;
	v->i = i;
	return 0;
}

int bc_int_from_u64(const bc_argtype_t *t, uint64_t u, usdt_arg_t *v)
{
	if (!is_integer(t))
		return -1;
	if (is_signed(t))
		return u > (uint64_t)INT64_MAX ? -1 : bc_int_from_i64(t, (int64_t)u, v);
	if (t->bits < 64 && u >> t->bits != 0)
		return -1;
	v->u = u;
	return 0;
}

/* ---------------------------------------------------------------- messages */

static char *fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));

static char *fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	if (buf == NULL || len == 0)
		return buf;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
	return buf;
}

char *bc_msg_label(char *buf, size_t len, const char *provider, const char *probe)
{
	return fmt(buf, len, "%s:::%s", provider != NULL ? provider : "?",
		   probe != NULL ? probe : "?");
}

char *bc_msg_badtype(char *buf, size_t len, const char *probe, int i, const char *shown)
{
	return fmt(buf, len, "probe %s: argument type %d: %s is not one of " BC_TYPE_NAMES,
		   probe != NULL ? probe : "?", i, shown != NULL ? shown : "?");
}

char *bc_msg_toomany(char *buf, size_t len, const char *probe)
{
	return fmt(buf, len, "probe %s: a probe takes at most %d arguments",
		   probe != NULL ? probe : "?", USDT_MAXARGS);
}

char *bc_msg_count(char *buf, size_t len, const char *label, int argc, long given)
{
	return fmt(buf, len, "%s takes %d argument%s (%ld given)", label != NULL ? label : "?",
		   argc, argc == 1 ? "" : "s", given);
}

char *bc_msg_range(char *buf, size_t len, const char *label, int i, const bc_argtype_t *t)
{
	return fmt(buf, len, "argument %d of %s: not an integer in the range of %s%d", i,
		   label != NULL ? label : "?", t != NULL && is_signed(t) ? "int" : "uint",
		   t != NULL ? t->bits : 64);
}

char *bc_msg_usdt(char *buf, size_t len, const char *what, const usdt_provider_t *prov, int code)
{
	const char *msg = prov != NULL ? usdt_provider_errmsg(prov) : NULL;

	return fmt(buf, len, "%s: %s", what != NULL ? what : "libusdt",
		   msg != NULL && *msg != '\0' ? msg : usdt_strerror(code));
}

static const char *const usdt_codes[] = {
	"EUSDT_BADNAME", "EUSDT_TOOMANYARGS", "EUSDT_BADTYPE",	 "EUSDT_DUPLICATE",
	"EUSDT_ENABLED", "EUSDT_NOTENABLED",  "EUSDT_DESTROYED", "EUSDT_ARGCOUNT",
	"EUSDT_ELF",	 "EUSDT_RUNDIR",      "EUSDT_BADOPTS",	 "EUSDT_HIGHADDR",
};
_Static_assert(sizeof(usdt_codes) / sizeof(usdt_codes[0]) == EUSDT_MAX - EUSDT_BASE,
	       "a name for every libusdt code");

const char *bc_usdt_codename(int code)
{
	const char *s;

	if (code < 0 && code > -EUSDT_MAX)
		code = -code;
	if (code >= EUSDT_BASE && code < EUSDT_MAX)
		return usdt_codes[code - EUSDT_BASE];
	return code > 0 && code < EUSDT_BASE && (s = strerrorname_np(code)) != NULL ? s : "EUSDT";
}

/* ---------------------------------------------------------------- the watcher */

int bc_interval_ns(double value, double unit_ns, long *ns)
{
	double d = value * unit_ns;

	/* a little slack: 0.001 s times 1e9 need not be exactly 1e6 */
	if (!(d >= BC_INTERVAL_MIN_NS * (1 - 1e-9) && d <= BC_INTERVAL_MAX_NS * (1 + 1e-9)))
		return -1;
	*ns = (long)llround(d);
	if (*ns < BC_INTERVAL_MIN_NS)
		*ns = BC_INTERVAL_MIN_NS;
	if (*ns > BC_INTERVAL_MAX_NS)
		*ns = BC_INTERVAL_MAX_NS;
	return 0;
}

unsigned bc_enabled_mask(usdt_probe_t *const *probes, int n)
{
	unsigned mask = 0;

	for (int i = 0; probes != NULL && i < n && i < 32; i++)
		if (probes[i] != NULL && usdt_probe_is_enabled(probes[i]) > 0)
			mask |= 1u << i;
	return mask;
}

/* ---------------------------------------------------------------- the runtime provider */

const char *const bc_rt_names[BC_RT_NPROBES] = { "function-entry", "function-return" };

int bc_rt_open(bc_rt_t *rt, const char *provider, const char *module, char *err, size_t errlen)
{
	static const usdt_argtype_t args[] = { USDT_ARG_STRING, USDT_ARG_STRING, USDT_ARG_INT32 };
	/* each probe in a function of its own name, as the runtimes' old probes were */
	static const char *const notes[BC_RT_NPROBES] = { "function__entry", "function__return" };
	int rc = 0;

	if (rt == NULL) {
		fmt(err, errlen, "%s", usdt_strerror(EINVAL));
		return -EINVAL;
	}
	if (rt->prov != NULL) {
		fmt(err, errlen, "%s", usdt_strerror(EUSDT_ENABLED));
		return -EUSDT_ENABLED;
	}
	if ((rt->prov = usdt_provider_create(provider, module, NULL, &rc)) == NULL) {
		fmt(err, errlen, "%s", usdt_strerror(rc));
		return rc;
	}
	for (int i = 0; i < BC_RT_NPROBES && rc == 0; i++) {
		rt->probes[i] = usdt_probe_create(rt->prov, notes[i], notes[i], 3, args);
		if (rt->probes[i] == NULL)
			rc = -usdt_provider_errno(rt->prov);
	}
	if (rc == 0)
		rc = usdt_provider_enable(rt->prov);
	if (rc != 0) {
		fmt(err, errlen, "%s", usdt_provider_errmsg(rt->prov));
		bc_rt_close(rt);
		memset(rt->probes, 0, sizeof(rt->probes));
	}
	return rc;
}

int bc_rt_watch(bc_rt_t *rt, long interval_ns, usdt_watch_fn *fn, void *arg, char *err,
		size_t errlen)
{
	int rc = -EINVAL;

	if (rt != NULL && rt->prov != NULL && rt->watch == NULL &&
	    interval_ns >= BC_INTERVAL_MIN_NS && interval_ns <= BC_INTERVAL_MAX_NS)
		rt->watch = usdt_watch_start(rt->probes, BC_RT_NPROBES, interval_ns, fn, arg, &rc);
	if (rt == NULL || rt->watch == NULL) {
		fmt(err, errlen, "cannot start the watcher thread: %s", usdt_strerror(rc));
		return rc < 0 ? rc : -EINVAL;
	}
	return 0;
}

bool bc_rt_traced(const bc_rt_t *rt)
{
	return rt != NULL && bc_enabled_mask(rt->probes, BC_RT_NPROBES) != 0;
}

int bc_rt_index(const char *name)
{
	for (int i = 0; name != NULL && i < BC_RT_NPROBES; i++)
		if (strcmp(name, bc_rt_names[i]) == 0)
			return i;
	return -1;
}

void bc_rt_unwatch(bc_rt_t *rt)
{
	if (rt == NULL)
		return;
	usdt_watch_stop(rt->watch); /* accepts NULL; in a forked child it only frees */
	rt->watch = NULL;
}

void bc_rt_close(bc_rt_t *rt)
{
	if (rt == NULL)
		return;
	usdt_provider_destroy(rt->prov);
	rt->prov = NULL;
}
