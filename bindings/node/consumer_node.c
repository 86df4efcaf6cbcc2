/*
 * consumer_node.c -- the Node binding's consumer addon (consumer.node): a
 * libdtrace handle for consumer.js's Consumer.
 *
 * Records are read through bindings/common/bc_records.c: libdtrace's
 * callbacks copy each firing, printa() entry, fault and drop into a queue,
 * and the JS values are made from it on the main thread.  The waiting and
 * reading (dtrace_sleep(), dtrace_consume()) run as async work on libuv's
 * thread pool, so the event loop stays live while a consumer waits; while
 * that work runs the handle is busy: every other call but close() throws,
 * and close() is done when the work completes.
 *
 *   const h = new Handle()
 *   h.setopt(name, value), h.compile(src, args, flags), h.exec(), h.spawn(argv),
 *   h.grab(pid), h.go(continueTarget)
 *   h.work(sleep, (err, status, records) => ...)     status: 0 more, 1 done, -1 error
 *   h.aggregate() -> [{name, function, keys, value}], h.stop(), h.status(),
 *   h.targetExited(), h.target(), h.error(what), h.close()
 *
 * Only the stable Node-API (version 8).
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>

#include <dtrace.h>

#include "bc_records.h"

typedef struct handle {
	dtrace_hdl_t *dtp; /* NULL once closed */
	dtrace_prog_t *prog;
	bc_sink_t sink;
	bool busy;	  /* async work runs on the thread pool */
	bool close_asked; /* close() while busy: done when the work completes */
	bool quiet;	  /* read at go() */
	napi_async_work work;
	napi_ref callback; /* the work's */
	bool sleep;	   /* the work waits first */
	int status;	   /* the work's result */
	int err;	   /* dtrace_errno when status < 0 */
} handle_t;

#define TRY(call)                                    \
	do {                                         \
		if ((call) != napi_ok)               \
			return pending_or_null(env); \
	} while (0)

/* NULL after a failed Node-API call (its exception pending, or a generic one thrown). */
static napi_value pending_or_null(napi_env env)
{
	bool pending = false;

	if (napi_is_exception_pending(env, &pending) == napi_ok && !pending)
		napi_throw_error(env, NULL, "dtrace consumer: a Node-API call failed");
	return NULL;
}

static napi_value throw_code(napi_env env, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static napi_value throw_code(napi_env env, const char *code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	napi_throw_error(env, code, msg);
	return NULL;
}

/* Throw "what: <the handle's last error>", the error's code its dtrace_errno. */
static napi_value throw_dt(napi_env env, handle_t *h, const char *what, int err)
{
	char code[32];

	snprintf(code, sizeof(code), "%d", err);
	return throw_code(env, code, "%s: %s", what, dtrace_errmsg(h->dtp, err));
}

/* The handle_t of a Handle (NULL, a TypeError thrown, for anything else). */
static handle_t *unwrap(napi_env env, napi_value self)
{
	handle_t *h = NULL;

	if (napi_unwrap(env, self, (void **)&h) != napi_ok || h == NULL) {
		bool pending = false;

		napi_is_exception_pending(env, &pending);
		if (!pending)
			napi_throw_type_error(env, "ERR_INVALID_THIS",
					      "not a dtrace consumer Handle");
		return NULL;
	}
	return h;
}

/* The handle of `this`, open and idle (else an exception is thrown, NULL returned). */
static handle_t *get(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv)
{
	napi_value self;
	handle_t *h = NULL;

	if (napi_get_cb_info(env, info, argc, argv, &self, NULL) != napi_ok ||
	    (h = unwrap(env, self)) == NULL)
		return NULL;
	if (h->dtp == NULL || h->close_asked) {
		throw_code(env, "ERR_DTRACE_CLOSED", "the dtrace consumer is closed");
		return NULL;
	}
	if (h->busy) {
		throw_code(env, "ERR_DTRACE_BUSY",
			   "the dtrace consumer is reading records (wait for work() to call back)");
		return NULL;
	}
	return h;
}

/* A string argument, copied into a malloc'd buffer (NULL: thrown). */
static char *get_string(napi_env env, napi_value v, const char *what)
{
	napi_valuetype t;
	size_t n;
	char *s;

	if (napi_typeof(env, v, &t) != napi_ok || t != napi_string) {
		napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", what);
		return NULL;
	}
	if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok ||
	    (s = malloc(n + 1)) == NULL ||
	    napi_get_value_string_utf8(env, v, s, n + 1, &n) != napi_ok) {
		pending_or_null(env);
		return NULL;
	}
	if (strlen(s) != n) {
		free(s);
		napi_throw_type_error(env, "ERR_INVALID_ARG_VALUE", "a string holds a NUL");
		return NULL;
	}
	return s;
}

/* A list of strings (an Array), as a NULL-terminated argv with room for one before. */
static char **get_argv(napi_env env, napi_value v, const char *what, uint32_t *np)
{
	bool isarr = false;
	uint32_t n = 0;
	char **argv;

	if (napi_is_array(env, v, &isarr) != napi_ok || !isarr ||
	    napi_get_array_length(env, v, &n) != napi_ok) {
		throw_code(env, "ERR_INVALID_ARG_TYPE", "%s must be an array of strings", what);
		return NULL;
	}
	if ((argv = calloc((size_t)n + 2, sizeof(char *))) == NULL) {
		napi_throw_error(env, "ENOMEM", "out of memory");
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		napi_value e;

		if (napi_get_element(env, v, i, &e) != napi_ok ||
		    (argv[i + 1] = get_string(env, e, what)) == NULL) {
			for (uint32_t j = 1; j <= i; j++)
				free(argv[j]);
			free(argv);
			return NULL;
		}
	}
	*np = n;
	return argv;
}

static void free_argv(char **argv, uint32_t n)
{
	for (uint32_t i = 1; argv != NULL && i <= n; i++)
		free(argv[i]);
	free(argv);
}

static void close_handle(handle_t *h)
{
	if (h->prog != NULL)
		dtrace_program_destroy(h->dtp, h->prog);
	h->prog = NULL;
	if (h->dtp != NULL)
		dtrace_close(h->dtp);
	h->dtp = NULL;
	bc_sink_fini(&h->sink);
}

static void finalize(napi_env env, void *data, void *hint)
{
	handle_t *h = data;

	(void)hint;
	if (h->busy) { /* the work's completion frees it */
		h->close_asked = true;
		if (h->callback != NULL)
			napi_delete_reference(env, h->callback);
		h->callback = NULL;
		return;
	}
	close_handle(h);
	free(h);
}

static napi_value Handle_new(napi_env env, napi_callback_info info)
{
	napi_value self, target;
	handle_t *h;
	int err = 0;

	TRY(napi_get_new_target(env, info, &target));
	if (target == NULL)
		return throw_code(env, "ERR_ILLEGAL_CONSTRUCTOR", "Handle must be called with new");
	TRY(napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return throw_code(env, "ENOMEM", "out of memory");
	if ((h->dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		free(h);
		return throw_code(env, "ERR_DTRACE_OPEN", "dtrace_open: %s",
				  dtrace_errmsg(NULL, err));
	}
	bc_sink_init(&h->sink, h->dtp, BC_SINK_PRINTA);
	if (bc_sink_handlers(&h->sink) != 0) {
		err = dtrace_errno(h->dtp);
		throw_dt(env, h, "dtrace_open", err);
		close_handle(h);
		free(h);
		return NULL;
	}
	if (napi_wrap(env, self, h, finalize, NULL, NULL) != napi_ok) {
		close_handle(h);
		free(h);
		return pending_or_null(env);
	}
	return self;
}

static napi_value undefined(napi_env env)
{
	napi_value v;

	napi_get_undefined(env, &v);
	return v;
}

/* setopt(name, value?): value undefined or null for a switch. */
static napi_value Handle_setopt(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2];
	napi_valuetype t = napi_undefined;
	handle_t *h = get(env, info, &argc, argv);
	char *name, *value = NULL;
	int rc;

	if (h == NULL)
		return NULL;
	if (argc < 1 || (name = get_string(env, argv[0],
					   "setopt: the option's name must be a "
					   "string")) == NULL)
		return argc < 1 ? throw_code(env, "ERR_MISSING_ARGS", "setopt(name, value)") : NULL;
	if (argc > 1)
		napi_typeof(env, argv[1], &t);
	if (t != napi_undefined && t != napi_null &&
	    (value = get_string(env, argv[1], "setopt: the value must be a string")) == NULL) {
		free(name);
		return NULL;
	}
	rc = dtrace_setopt(h->dtp, name, value);
	free(value);
	if (rc != 0) {
		char what[300];

		snprintf(what, sizeof(what), "option %s", name);
		free(name);
		return throw_dt(env, h, what, dtrace_errno(h->dtp));
	}
	free(name);
	return undefined(env);
}

static napi_value set_str(napi_env env, napi_value o, const char *key, const char *s)
{
	napi_value v;

	if (s == NULL)
		return o;
	TRY(napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v));
	TRY(napi_set_named_property(env, o, key, v));
	return o;
}

static napi_value set_num(napi_env env, napi_value o, const char *key, double d)
{
	napi_value v;

	TRY(napi_create_double(env, d, &v));
	TRY(napi_set_named_property(env, o, key, v));
	return o;
}

/* compile(source, args, flags): a compile error throws with its diagnostic and a caret. */
static napi_value Handle_compile(napi_env env, napi_callback_info info)
{
	size_t argc = 3;
	napi_value argv[3], err, msg, code;
	handle_t *h = get(env, info, &argc, argv);
	char *src, **args;
	uint32_t nargs = 0, flags = 0;
	dtrace_prog_t *prog;
	const dtrace_diag_t *dg;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (h == NULL)
		return NULL;
	if (argc < 2)
		return throw_code(env, "ERR_MISSING_ARGS", "compile(source, args, flags)");
	if ((src = get_string(env, argv[0], "the D program must be a string")) == NULL)
		return NULL;
	if ((args = get_argv(env, argv[1], "args (the macro arguments $1...)", &nargs)) == NULL) {
		free(src);
		return NULL;
	}
	if (argc > 2)
		napi_get_value_uint32(env, argv[2], &flags);
	args[0] = (char *)"node";
	prog = dtrace_program_strcompile(h->dtp, src, "<program>", flags, (int)nargs + 1, args);
	args[0] = NULL;
	free_argv(args, nargs);
	free(src);
	if (prog != NULL) {
		if (h->prog != NULL)
			dtrace_program_destroy(h->dtp, h->prog);
		h->prog = prog;
		return undefined(env);
	}
	if ((dg = dtrace_lastdiag(h->dtp)) == NULL)
		return throw_dt(env, h, "compile", dtrace_errno(h->dtp));
	/* "file:line:column: TAG: message", then the line and a caret under the column */
	if ((fp = open_memstream(&text, &len)) == NULL)
		return throw_code(env, "ENOMEM", "out of memory");
	fprintf(fp, "%s:%u:%u: %s: %s", dg->dtdg_file, dg->dtdg_line, dg->dtdg_column, dg->dtdg_tag,
		dg->dtdg_message);
	if (dg->dtdg_source != NULL && dg->dtdg_source[0] != '\0') {
		fprintf(fp, "\n%s\n", dg->dtdg_source);
		for (unsigned i = 0; i + 1 < dg->dtdg_column && dg->dtdg_source[i] != '\0'; i++)
			fputc(dg->dtdg_source[i] == '\t' ? '\t' : ' ', fp);
		fputc('^', fp);
	}
	fclose(fp);
	if (napi_create_string_utf8(env, text, len, &msg) != napi_ok ||
	    napi_create_string_utf8(env, "ERR_DTRACE_COMPILE", NAPI_AUTO_LENGTH, &code) !=
		napi_ok ||
	    napi_create_error(env, code, msg, &err) != napi_ok) {
		free(text);
		return pending_or_null(env);
	}
	free(text);
	if (set_str(env, err, "name", "CompileError") == NULL ||
	    set_str(env, err, "tag", dg->dtdg_tag) == NULL ||
	    set_str(env, err, "file", dg->dtdg_file) == NULL ||
	    set_num(env, err, "line", dg->dtdg_line) == NULL ||
	    set_num(env, err, "column", dg->dtdg_column) == NULL ||
	    set_str(env, err, "diagnostic", dg->dtdg_message) == NULL ||
	    set_str(env, err, "source", dg->dtdg_source != NULL ? dg->dtdg_source : "") == NULL)
		return NULL;
	napi_throw(env, err);
	return NULL;
}

/* exec() -> [descriptions, probes matched]: enable the last program compiled. */
static napi_value Handle_exec(napi_env env, napi_callback_info info)
{
	size_t argc = 0;
	handle_t *h = get(env, info, &argc, NULL);
	dtrace_proginfo_t pi;
	napi_value out, v;

	if (h == NULL)
		return NULL;
	if (h->prog == NULL)
		return throw_code(env, "ERR_DTRACE_STATE", "exec(): no program compiled");
	if (dtrace_program_exec(h->dtp, h->prog, &pi) != 0)
		return throw_dt(env, h, "exec", dtrace_errno(h->dtp));
	h->prog = NULL; /* the handle owns it now */
	TRY(napi_create_array_with_length(env, 2, &out));
	TRY(napi_create_uint32(env, pi.dpi_descs, &v));
	TRY(napi_set_element(env, out, 0, v));
	TRY(napi_create_uint32(env, pi.dpi_matches, &v));
	TRY(napi_set_element(env, out, 1, v));
	return out;
}

/* spawn(argv) -> pid: the target, stopped at its entry until go(true). */
static napi_value Handle_spawn(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1], v;
	handle_t *h = get(env, info, &argc, argv);
	char **args;
	uint32_t n = 0;
	int pid, fdflags[3];

	if (h == NULL)
		return NULL;
	if (argc < 1)
		return throw_code(env, "ERR_MISSING_ARGS", "spawn(argv)");
	if ((args = get_argv(env, argv[0], "target (an argv)", &n)) == NULL)
		return NULL;
	if (n == 0) {
		free_argv(args, n);
		return throw_code(env, "ERR_INVALID_ARG_VALUE", "target: the argv is empty");
	}
	/*
	 * Node marks its stdin, stdout and stderr close-on-exec: the target
	 * would start without them (its writes failing with EBADF).  It gets
	 * them, as dtrace -c's does, the flags put back once it is started.
	 */
	for (int fd = 0; fd < 3; fd++)
		if ((fdflags[fd] = fcntl(fd, F_GETFD)) > 0 && (fdflags[fd] & FD_CLOEXEC))
			(void)fcntl(fd, F_SETFD, fdflags[fd] & ~FD_CLOEXEC);
	pid = dtrace_proc_create(h->dtp, args + 1);
	for (int fd = 0; fd < 3; fd++)
		if (fdflags[fd] > 0 && (fdflags[fd] & FD_CLOEXEC))
			(void)fcntl(fd, F_SETFD, fdflags[fd]);
	free_argv(args, n);
	if (pid < 0)
		return throw_dt(env, h, "spawn", dtrace_errno(h->dtp));
	TRY(napi_create_int32(env, pid, &v));
	return v;
}

static napi_value Handle_grab(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1];
	handle_t *h = get(env, info, &argc, argv);
	int32_t pid = 0;

	if (h == NULL)
		return NULL;
	if (argc < 1 || napi_get_value_int32(env, argv[0], &pid) != napi_ok || pid <= 0)
		return throw_code(env, "ERR_INVALID_ARG_VALUE", "grab(pid): a positive pid");
	if (dtrace_proc_grab(h->dtp, pid) != 0)
		return throw_dt(env, h, "grab", dtrace_errno(h->dtp));
	return undefined(env);
}

/* go(continueTarget): load, attach, BEGIN; then the target runs. */
static napi_value Handle_go(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1];
	handle_t *h = get(env, info, &argc, argv);
	bool cont = false;
	int64_t v = 0;

	if (h == NULL)
		return NULL;
	if (argc > 0)
		napi_get_value_bool(env, argv[0], &cont);
	/* records do not depend on oformat, but a program that asks for text is refused */
	if (dtrace_getopt(h->dtp, "oformat", &v) == 0 && v != DTRACEOPT_UNSET &&
	    !dtrace_oformat(h->dtp))
		return throw_code(env, "ERR_DTRACE_OPTION",
				  "go: oformat=text was set; a Consumer reads records");
	h->quiet = dtrace_getopt(h->dtp, "quiet", &v) == 0 && v != DTRACEOPT_UNSET && v != 0;
	if (dtrace_go(h->dtp) != 0)
		return throw_dt(env, h, "go", dtrace_errno(h->dtp));
	if (cont && dtrace_proc_continue(h->dtp) != 0)
		return throw_dt(env, h, "continue", dtrace_errno(h->dtp));
	return undefined(env);
}

/* ---------------------------------------------------------------- values */

#define SAFE_MAX 9007199254740991.0 /* 2^53 - 1: larger integers are BigInts */

static napi_value int_value(napi_env env, bool is_signed, int64_t i, uint64_t u)
{
	napi_value v;

	if (is_signed) {
		if (i >= -(int64_t)SAFE_MAX && i <= (int64_t)SAFE_MAX)
			TRY(napi_create_int64(env, i, &v));
		else
			TRY(napi_create_bigint_int64(env, i, &v));
	} else if (u <= (uint64_t)SAFE_MAX) {
		TRY(napi_create_double(env, (double)u, &v));
	} else {
		TRY(napi_create_bigint_uint64(env, u, &v));
	}
	return v;
}

static napi_value set_value(napi_env env, napi_value o, const char *key, napi_value v)
{
	if (v == NULL || napi_set_named_property(env, o, key, v) != napi_ok)
		return pending_or_null(env);
	return o;
}

static napi_value set_u64(napi_env env, napi_value o, const char *key, uint64_t u)
{
	return set_value(env, o, key, int_value(env, false, 0, u));
}

static napi_value set_i64(napi_env env, napi_value o, const char *key, int64_t i)
{
	return set_value(env, o, key, int_value(env, true, i, 0));
}

static napi_value string_n(napi_env env, const char *s, size_t n)
{
	napi_value v;

	TRY(napi_create_string_utf8(env, s != NULL ? s : "", s != NULL ? n : 0, &v));
	return v;
}

/* A frame or a symbol: address, module, symbol and offset when known, name. */
static napi_value place(napi_env env, napi_value o, uint64_t addr, const char *module,
			const char *symbol, uint64_t offset, const char *name)
{
	if (set_u64(env, o, "address", addr) == NULL || set_str(env, o, "module", module) == NULL ||
	    set_str(env, o, "symbol", symbol) == NULL ||
	    (symbol != NULL && set_u64(env, o, "offset", offset) == NULL) ||
	    set_str(env, o, "name", name != NULL ? name : "") == NULL)
		return NULL;
	return o;
}

/* The JS value of one record (a datum or a key), as docs/node.md describes. */
static napi_value js_value(napi_env env, const bc_value_t *r)
{
	napi_value v, o, frames;
	bc_reader_t sub = r->sub;
	bc_frame_t f;
	uint32_t i = 0;
	void *data;

	switch (r->kind) {
	case DTRACE_REC_INT: return int_value(env, r->is_signed, r->i, r->u);
	case DTRACE_REC_FLOAT:
		if (!isfinite(r->f))
			TRY(napi_get_null(env, &v));
		else
			TRY(napi_create_double(env, r->f, &v));
		return v;
	case DTRACE_REC_STRING:
	case DTRACE_REC_PRINTF: return string_n(env, r->str, r->len);
	case DTRACE_REC_BYTES:
		TRY(napi_create_buffer_copy(env, r->len, r->len ? r->str : "", &data, &v));
		if (!bc_is_print(r))
			return v;
		TRY(napi_create_object(env, &o));
		if (set_str(env, o, "type", r->type) == NULL ||
		    set_u64(env, o, "address", r->addr) == NULL ||
		    set_value(env, o, "bytes", v) == NULL)
			return NULL;
		return o;
	case DTRACE_REC_SYM:
		TRY(napi_create_object(env, &o));
		if ((r->pid != 0 && set_i64(env, o, "pid", r->pid) == NULL) ||
		    place(env, o, r->addr, r->module, r->symbol, r->offset, r->str) == NULL)
			return NULL;
		return o;
	case DTRACE_REC_STACK:
		TRY(napi_create_object(env, &o));
		TRY(napi_create_array_with_length(env, r->n, &frames));
		if (r->pid != 0 && set_i64(env, o, "pid", r->pid) == NULL)
			return NULL;
		while (bc_read_frame(&sub, &f) == 1) {
			TRY(napi_create_object(env, &v));
			if (place(env, v, f.pc, f.module, f.symbol, f.offset, f.name) == NULL)
				return NULL;
			TRY(napi_set_element(env, frames, i++, v));
		}
		return set_value(env, o, "frames", frames);
	default: return undefined(env);
	}
}

static napi_value probe_object(napi_env env, const bc_entry_t *e)
{
	napi_value p;

	TRY(napi_create_object(env, &p));
	if (set_str(env, p, "provider", e->provider) == NULL ||
	    set_str(env, p, "module", e->module) == NULL ||
	    set_str(env, p, "function", e->function) == NULL ||
	    set_str(env, p, "name", e->name) == NULL)
		return NULL;
	return p;
}

/* An aggregation's entry: {name, function, keys, value}; quantizations' buckets {min, max, count}. */
static napi_value agg_object(napi_env env, bc_entry_t *e, bool typed)
{
	napi_value o, keys, v, b;
	bc_value_t k;
	dtrace_aggbucket_t bk;
	uint32_t i = 0;
	bool open = e->aggkind == DTRACE_AGG_LQUANTIZE || e->aggkind == DTRACE_AGG_LLQUANTIZE;

	TRY(napi_create_object(env, &o));
	if ((typed && set_str(env, o, "type", "aggregation") == NULL) ||
	    set_str(env, o, "name", e->aggname) == NULL ||
	    set_str(env, o, "function", e->function_name) == NULL)
		return NULL;
	TRY(napi_create_array_with_length(env, e->nkeys, &keys));
	while (bc_read_value(&e->keys, &k) == 1) {
		if ((v = js_value(env, &k)) == NULL)
			return NULL;
		TRY(napi_set_element(env, keys, i++, v));
	}
	if (set_value(env, o, "keys", keys) == NULL)
		return NULL;
	if (e->aggkind != DTRACE_AGG_QUANTIZE && !open)
		return set_i64(env, o, "value", e->value);
	TRY(napi_create_array_with_length(env, e->nbuckets, &v));
	for (i = 0; bc_read_bucket(&e->buckets, &bk) == 1; i++) {
		TRY(napi_create_object(env, &b));
		if ((!(open && bk.dtab_lo == INT64_MIN) &&
		     set_i64(env, b, "min", bk.dtab_lo) == NULL) ||
		    (!(open && bk.dtab_hi == INT64_MAX) &&
		     set_i64(env, b, "max", bk.dtab_hi) == NULL) ||
		    set_i64(env, b, "count", bk.dtab_count) == NULL)
			return NULL;
		TRY(napi_set_element(env, v, i, b));
	}
	return set_value(env, o, "value", v);
}

/* One queue entry as its JS object; *skip set for a firing quiet leaves out. */
static napi_value entry_object(napi_env env, handle_t *h, bc_entry_t *e, bool *skip)
{
	napi_value o, data, v;
	bc_value_t r;
	uint32_t i = 0;

	*skip = false;
	switch (e->kind) {
	case BC_PROBE:
		/* quiet: a firing that traced nothing makes no record (as oformat=json) */
		if (h->quiet && e->ndata == 0) {
			*skip = true;
			return NULL;
		}
		TRY(napi_create_object(env, &o));
		TRY(napi_create_array_with_length(env, e->ndata, &data));
		if (set_str(env, o, "type", "probe") == NULL ||
		    set_i64(env, o, "cpu", e->cpu) == NULL ||
		    set_u64(env, o, "id", e->id) == NULL ||
		    set_value(env, o, "probe", probe_object(env, e)) == NULL)
			return NULL;
		while (bc_read_value(&e->recs, &r) == 1) {
			if (!r.is_data)
				continue;
			if ((v = js_value(env, &r)) == NULL)
				return NULL;
			TRY(napi_set_element(env, data, i++, v));
		}
		return set_value(env, o, "data", data);
	case BC_AGG: return agg_object(env, e, true);
	case BC_ERROR:
		TRY(napi_create_object(env, &o));
		if (set_str(env, o, "type", "error") == NULL ||
		    set_u64(env, o, "epid", e->epid) == NULL ||
		    set_u64(env, o, "id", e->id) == NULL ||
		    set_value(env, o, "probe", probe_object(env, e)) == NULL ||
		    set_str(env, o, "fault", e->fault) == NULL ||
		    (e->has_addr && set_u64(env, o, "address", e->addr) == NULL) ||
		    set_i64(env, o, "action", e->action) == NULL ||
		    set_i64(env, o, "offset", e->offset) == NULL ||
		    set_str(env, o, "message", e->msg) == NULL)
			return NULL;
		return o;
	case BC_DROP:
		TRY(napi_create_object(env, &o));
		if (set_str(env, o, "type", "drop") == NULL ||
		    set_str(env, o, "kind", e->dropkind) == NULL ||
		    (e->cpu >= 0 && set_i64(env, o, "cpu", e->cpu) == NULL) ||
		    set_u64(env, o, "count", e->count) == NULL ||
		    set_str(env, o, "message", e->msg) == NULL)
			return NULL;
		return o;
	}
	return throw_code(env, "ERR_DTRACE_INTERNAL", "a bad queue entry");
}

/* Every entry of the sink as an array of objects; the sink is emptied. */
static napi_value take_entries(napi_env env, handle_t *h)
{
	bc_reader_t r = bc_sink_reader(&h->sink);
	napi_value out, o;
	bc_entry_t e;
	uint32_t i = 0;
	bool skip;
	int rc;

	TRY(napi_create_array(env, &out));
	while ((rc = bc_read_entry(&r, &e)) == 1) {
		if ((o = entry_object(env, h, &e, &skip)) == NULL) {
			if (skip)
				continue;
			return NULL; /* the queue is kept: nothing is lost */
		}
		TRY(napi_set_element(env, out, i++, o));
	}
	if (rc < 0)
		return throw_code(env, "ERR_DTRACE_INTERNAL", "a malformed records queue");
	bc_sink_reset(&h->sink);
	return out;
}

/* ---------------------------------------------------------------- async work */

static void work_execute(napi_env env, void *data)
{
	handle_t *h = data;

	(void)env;
	if (h->sleep)
		dtrace_sleep(h->dtp);
	h->status = (int)bc_consume(&h->sink);
	h->err = h->status < 0 ? dtrace_errno(h->dtp) : 0;
}

static void work_complete(napi_env env, napi_status st, void *data)
{
	handle_t *h = data;
	napi_value cb = NULL, args[3], recs = NULL, global;
	napi_ref ref = h->callback;
	bool failed = bc_sink_failed(&h->sink);

	h->busy = false;
	napi_delete_async_work(env, h->work);
	h->work = NULL;
	h->callback = NULL;
	if (ref != NULL) {
		if (napi_get_reference_value(env, ref, &cb) != napi_ok)
			cb = NULL;
		napi_delete_reference(env, ref);
	}
	if (h->close_asked) { /* close() came while the work ran, or the Handle was collected */
		close_handle(h);
		if (cb == NULL) { /* collected: nobody to tell */
			free(h);
			return;
		}
	}
	if (cb == NULL)
		return;
	args[0] = NULL;
	if (h->dtp == NULL) {
		napi_get_null(env, &args[0]);
		napi_create_int32(env, 1, &args[1]);
		napi_create_array(env, &args[2]);
	} else {
		napi_create_int32(env, st == napi_ok ? h->status : -1, &args[1]);
		if ((recs = take_entries(env, h)) == NULL) {
			bool pending = false;

			napi_is_exception_pending(env, &pending);
			if (pending)
				napi_get_and_clear_last_exception(env, &args[0]);
			napi_create_array(env, &recs);
		} else if (failed) { /* what did not fit is lost: say so */
			napi_value m, c;

			napi_create_string_utf8(env, "out of memory: records were lost",
						NAPI_AUTO_LENGTH, &m);
			napi_create_string_utf8(env, "ENOMEM", NAPI_AUTO_LENGTH, &c);
			napi_create_error(env, c, m, &args[0]);
		}
		args[2] = recs;
		if (args[0] == NULL)
			napi_get_null(env, &args[0]);
	}
	napi_get_global(env, &global);
	napi_call_function(env, global, cb, 3, args, NULL); /* its exception goes to Node */
}

/* work(sleep, callback(err, status, records)): wait (if sleep) and read, off the main thread. */
static napi_value Handle_work(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2], name;
	napi_valuetype t = napi_undefined;
	handle_t *h = get(env, info, &argc, argv);

	if (h == NULL)
		return NULL;
	if (argc > 1)
		napi_typeof(env, argv[1], &t);
	if (t != napi_function)
		return throw_code(env, "ERR_INVALID_ARG_TYPE", "work(sleep, callback)");
	napi_get_value_bool(env, argv[0], &h->sleep);
	TRY(napi_create_string_utf8(env, "dtrace.consume", NAPI_AUTO_LENGTH, &name));
	TRY(napi_create_reference(env, argv[1], 1, &h->callback));
	if (napi_create_async_work(env, NULL, name, work_execute, work_complete, h, &h->work) !=
		napi_ok ||
	    napi_queue_async_work(env, h->work) != napi_ok) {
		napi_delete_reference(env, h->callback);
		h->callback = NULL;
		return pending_or_null(env);
	}
	h->busy = true;
	return undefined(env);
}

/* aggregate() -> [{name, function, keys, value}]: a snapshot, in dtrace(1)'s order. */
static napi_value Handle_aggregate(napi_env env, napi_callback_info info)
{
	size_t argc = 0;
	handle_t *h = get(env, info, &argc, NULL);
	bc_sink_t s;
	bc_reader_t r;
	bc_entry_t e;
	napi_value out, o;
	uint32_t i = 0;
	int rc;

	if (h == NULL)
		return NULL;
	bc_sink_init(&s, h->dtp, 0);
	if (bc_aggregate(&s, NULL) != 0) {
		bc_sink_fini(&s);
		return throw_dt(env, h, "aggregations", dtrace_errno(h->dtp));
	}
	if (bc_sink_failed(&s)) {
		bc_sink_fini(&s);
		return throw_code(env, "ENOMEM", "aggregations: out of memory");
	}
	r = bc_sink_reader(&s);
	if (napi_create_array(env, &out) != napi_ok)
		out = NULL;
	while (out != NULL && (rc = bc_read_entry(&r, &e)) == 1)
		if ((o = agg_object(env, &e, false)) == NULL ||
		    napi_set_element(env, out, i++, o) != napi_ok)
			out = NULL;
	bc_sink_fini(&s);
	return out != NULL ? out : pending_or_null(env);
}

static napi_value Handle_stop(napi_env env, napi_callback_info info)
{
	size_t argc = 0;
	handle_t *h = get(env, info, &argc, NULL);

	if (h == NULL)
		return NULL;
	if (dtrace_stop(h->dtp) != 0)
		return throw_dt(env, h, "stop", dtrace_errno(h->dtp));
	return undefined(env);
}

/* status() -> [dtrace_status, exit value] */
static napi_value Handle_status(napi_env env, napi_callback_info info)
{
	size_t argc = 0;
	handle_t *h = get(env, info, &argc, NULL);
	napi_value out, v;

	if (h == NULL)
		return NULL;
	TRY(napi_create_array_with_length(env, 2, &out));
	TRY(napi_create_int32(env, dtrace_status(h->dtp), &v));
	TRY(napi_set_element(env, out, 0, v));
	TRY(napi_create_int32(env, dtrace_exit_value(h->dtp), &v));
	TRY(napi_set_element(env, out, 1, v));
	return out;
}

/* targetExited() -> null while it runs (or none), else its wait status. */
static napi_value Handle_targetExited(napi_env env, napi_callback_info info)
{
	size_t argc = 0;
	handle_t *h = get(env, info, &argc, NULL);
	napi_value v;
	int st = 0;

	if (h == NULL)
		return NULL;
	if (!dtrace_proc_exited(h->dtp, &st))
		TRY(napi_get_null(env, &v));
	else
		TRY(napi_create_int32(env, st, &v));
	return v;
}

static napi_value Handle_target(napi_env env, napi_callback_info info)
{
	size_t argc = 0;
	handle_t *h = get(env, info, &argc, NULL);
	napi_value v;

	if (h == NULL)
		return NULL;
	TRY(napi_create_int32(env, dtrace_proc_target(h->dtp), &v));
	return v;
}

/* error(what) -> "what: <the handle's last error>" as an Error (not thrown), or what work saw. */
static napi_value Handle_error(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1], err = NULL;
	handle_t *h = get(env, info, &argc, argv);
	char *what;
	int code;

	if (h == NULL)
		return NULL;
	if (argc < 1 || (what = get_string(env, argv[0], "error(what)")) == NULL)
		return argc < 1 ? throw_code(env, "ERR_MISSING_ARGS", "error(what)") : NULL;
	code = h->err != 0 ? h->err : dtrace_errno(h->dtp);
	throw_dt(env, h, what, code);
	free(what);
	napi_get_and_clear_last_exception(env, &err);
	return err;
}

/* close(): detach everything (idempotent); while work runs, when it completes. */
static napi_value Handle_close(napi_env env, napi_callback_info info)
{
	napi_value self;
	handle_t *h = NULL;

	TRY(napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
	if ((h = unwrap(env, self)) == NULL)
		return NULL;
	if (h->busy)
		h->close_asked = true;
	else
		close_handle(h);
	return undefined(env);
}

/* busy: whether work() runs; closed: whether close() was called. */
static napi_value Handle_state(napi_env env, napi_callback_info info)
{
	napi_value self, o, v;
	handle_t *h = NULL;

	TRY(napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
	if ((h = unwrap(env, self)) == NULL)
		return NULL;
	TRY(napi_create_object(env, &o));
	TRY(napi_get_boolean(env, h->busy, &v));
	TRY(napi_set_named_property(env, o, "busy", v));
	TRY(napi_get_boolean(env, h->dtp == NULL || h->close_asked, &v));
	TRY(napi_set_named_property(env, o, "closed", v));
	return o;
}

static napi_value init(napi_env env, napi_value exports)
{
	static const struct {
		const char *name;
		napi_callback fn;
	} methods[] = {
		{ "setopt", Handle_setopt },
		{ "compile", Handle_compile },
		{ "exec", Handle_exec },
		{ "spawn", Handle_spawn },
		{ "grab", Handle_grab },
		{ "go", Handle_go },
		{ "work", Handle_work },
		{ "aggregate", Handle_aggregate },
		{ "stop", Handle_stop },
		{ "status", Handle_status },
		{ "targetExited", Handle_targetExited },
		{ "target", Handle_target },
		{ "error", Handle_error },
		{ "close", Handle_close },
		{ "state", Handle_state },
	};
	napi_property_descriptor props[sizeof(methods) / sizeof(methods[0])];
	napi_value cls, v;

	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		props[i] = (napi_property_descriptor){ .utf8name = methods[i].name,
						       .method = methods[i].fn,
						       .attributes = napi_default_method };
	TRY(napi_define_class(env, "Handle", NAPI_AUTO_LENGTH, Handle_new, NULL,
			      sizeof(props) / sizeof(props[0]), props, &cls));
	TRY(napi_set_named_property(env, exports, "Handle", cls));
	TRY(napi_create_uint32(env, DTRACE_C_CPP, &v));
	TRY(napi_set_named_property(env, exports, "C_CPP", v));
	TRY(napi_create_uint32(env, DTRACE_C_ZDEFS, &v));
	TRY(napi_set_named_property(env, exports, "C_ZDEFS", v));
	return exports;
}

NAPI_MODULE_EXPORT int32_t NODE_API_MODULE_GET_API_VERSION(void);
NAPI_MODULE_INIT()
{
	return init(env, exports);
}
