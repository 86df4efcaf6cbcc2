/*
 * bc_usdt.h -- what the provider halves of the Python, Lua and Node
 * bindings share: the argument types a probe may declare, the checks and
 * messages that need none of the language's objects, and the runtime
 * provider (function-entry/function-return) with libusdt's watcher.
 *
 * The sources are compiled into each binding's module (hidden symbols,
 * nothing exported); each binding keeps only its language's glue: turning
 * its values into usdt_arg_t, raising its errors, and installing its hook.
 *
 * Errors follow libusdt's convention (usdt.h, "Errors"): functions that
 * can fail return 0 or a libusdt code negated, and fill a caller's buffer
 * with the message the bindings show.  Messages are the same text in the
 * three languages.  Nothing here takes a lock or allocates, except
 * bc_rt_open() and bc_rt_watch() through libusdt.
 */
#ifndef BC_USDT_H
#define BC_USDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <usdt.h>

/* How a language value becomes the probe's 64-bit value. */
typedef enum bc_kind {
	BC_INT = 1, /* a signed integer of bits bits */
	BC_UINT,    /* an unsigned integer of bits bits */
	BC_PTR,	    /* an address (64 bits, unsigned); Lua also takes a userdata */
	BC_STR,	    /* a string (or the language's nil: a NULL pointer) */
	BC_FLOAT,   /* a double, sent as its IEEE-754 bits */
	BC_JSON,    /* any value, serialised by the language's JSON encoder: a string */
} bc_kind_t;

/* One argument type name, as a binding's probe() takes it. */
typedef struct bc_argtype {
	const char *name;
	usdt_argtype_t type;
	unsigned char kind; /* bc_kind_t */
	unsigned char bits; /* BC_INT, BC_UINT, BC_PTR: the width; else 0 */
} bc_argtype_t;

/* The names bc_argtype() knows, as the messages list them. */
#define BC_TYPE_NAMES "int, string, float, json, int8..uint64, pointer, double"

/*
 * The type of a name: "int" (int64), "string" (also "str" and "char *"),
 * "float" (double), "json", "int8".."uint64", "pointer", "double".  NULL
 * for any other name, and for NULL.  The row is static.
 */
const bc_argtype_t *bc_argtype(const char *name);

/*
 * Integer conversions at the declared width: 0 and *v set, or -1 when the
 * value is not an integer in the type's range (nothing set).  The width
 * of a pointer is 64 bits, unsigned.  d: a double holding an integer
 * (JavaScript's Number); i, u: a 64-bit integer of either sign.
 */
int bc_int_from_double(const bc_argtype_t *t, double d, usdt_arg_t *v);
int bc_int_from_i64(const bc_argtype_t *t, int64_t i, usdt_arg_t *v);
int bc_int_from_u64(const bc_argtype_t *t, uint64_t u, usdt_arg_t *v);

/*
 * Messages, written to buf (len bytes, always terminated; truncated if
 * need be).  Each returns buf.
 *   bc_msg_label:   "provider:::probe", how the others name a probe
 *   bc_msg_badtype: "probe q: argument type 2: 'float32' is not one of
 *                   int, string, ..." (shown: the value as the language
 *                   shows it, quotes included)
 *   bc_msg_toomany: "probe q: a probe takes at most 12 arguments"
 *   bc_msg_count:   "p:::q takes 2 arguments (3 given)"
 *   bc_msg_range:   "argument 1 of p:::q: not an integer in the range of int8"
 *   bc_msg_usdt:    "what: " and the provider's message of its last
 *                   failure, or usdt_strerror(code) (either sign)
 */
char *bc_msg_label(char *buf, size_t len, const char *provider, const char *probe);
char *bc_msg_badtype(char *buf, size_t len, const char *probe, int i, const char *shown);
char *bc_msg_toomany(char *buf, size_t len, const char *probe);
char *bc_msg_count(char *buf, size_t len, const char *label, int argc, long given);
char *bc_msg_range(char *buf, size_t len, const char *label, int i, const bc_argtype_t *t);
char *bc_msg_usdt(char *buf, size_t len, const char *what, const usdt_provider_t *prov, int code);

/* The name of a code of either sign: "EUSDT_BADNAME", "EINVAL"; "EUSDT" if unknown. */
const char *bc_usdt_codename(int code);

/*
 * The watcher's interval: value in units of unit_ns (1e9: seconds, 1e6:
 * milliseconds) within 1 ms .. 60 s.  0 and *ns set, or -1 (NaN, out of
 * range).  The bindings' messages give the range in their own unit.
 */
#define BC_INTERVAL_MIN_NS 1000000L
#define BC_INTERVAL_MAX_NS 60000000000L
int bc_interval_ns(double value, double unit_ns, long *ns);

/* Which of probes[0..n) (n <= 32) a tracer has enabled now: bit i for probes[i]. */
unsigned bc_enabled_mask(usdt_probe_t *const *probes, int n);

/*
 * A runtime provider: function-entry and function-return (name, file,
 * line: char *, char *, int32), each in a function of its own name, which
 * a language hooks into its calls only while a tracer has one enabled,
 * told by libusdt's watcher.  The watcher's fn runs on its own thread:
 * Python's takes the GIL there, Lua's signals the Lua thread, Node's posts
 * to the event loop.  Zero it before bc_rt_open().
 */
enum { BC_RT_ENTRY, BC_RT_RETURN, BC_RT_NPROBES };

typedef struct bc_rt {
	usdt_provider_t *prov; /* NULL: not open */
	usdt_probe_t *probes[BC_RT_NPROBES];
	usdt_watch_t *watch; /* NULL: not watched */
} bc_rt_t;

/* The probes' names, as tracers show them: "function-entry", "function-return". */
extern const char *const bc_rt_names[BC_RT_NPROBES];

/*
 * Create the provider (module NULL: the program's name), its two probes,
 * and enable it.  0, or a negative code with the provider gone and the
 * reason in err (errlen bytes).
 */
int bc_rt_open(bc_rt_t *rt, const char *provider, const char *module, char *err, size_t errlen);

/*
 * Start the watcher over the two probes (bc_interval_ns's range).  0, or a
 * negative code (-EINVAL, -ENOMEM, -EAGAIN: usdt_watch_start) and err.
 */
int bc_rt_watch(bc_rt_t *rt, long interval_ns, usdt_watch_fn *fn, void *arg, char *err,
		size_t errlen);

/* Does a tracer have either probe enabled? */
bool bc_rt_traced(const bc_rt_t *rt);

/* The index of a probe's name ("function-entry": BC_RT_ENTRY), or -1. */
int bc_rt_index(const char *name);

/*
 * Stop and join the watcher (in a child forked after bc_rt_watch: only
 * free it).  fn runs no more after it returns, so call it where fn can
 * finish: not holding a lock fn takes (Python: without the GIL).
 */
void bc_rt_unwatch(bc_rt_t *rt);

/*
 * Destroy the provider.  The probe handles stay valid (libusdt keeps them
 * for the process) and fire into nothing: a hook already past its check
 * does no harm.  Unwatch first.
 */
void bc_rt_close(bc_rt_t *rt);

#endif /* BC_USDT_H */
