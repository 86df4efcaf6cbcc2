/*
 * consumermodule.c -- dtrace._consumer: a libdtrace handle for Python.
 *
 * The low layer of dtrace.Consumer (dtrace/consumer.py).  It reads
 * libdtrace's records API: dtrace_consume() for the records of each probe
 * firing, dtrace_aggregate_walk() for the aggregations, and the errdata
 * and dropdata handlers for faults and drops.  The callbacks copy what
 * they receive into a queue (they run without the GIL, inside libdtrace);
 * the Python values (docs/python.md) are made from it once libdtrace has
 * returned.  The GIL is released while libdtrace waits or reads buffers;
 * a handle is used by one thread at a time (a second caller gets
 * RuntimeError, not a race).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <dtrace.h>

/*
 * What libdtrace's callbacks receive is borrowed until they return, and
 * they run without the GIL inside libdtrace's frames, where no Python
 * error may start.  So they copy it into a queue of plain bytes, and the
 * Python values are made from the queue once libdtrace has returned.
 * The queue is cut back to its last whole entry when memory runs out.
 */
typedef struct queue {
	char *buf;
	size_t len, cap;
	size_t whole; /* the end of the last whole entry */
	bool failed;  /* out of memory since the last take */
} queue_t;

static void q_put(queue_t *q, const void *p, size_t n)
{
	if (q->failed || n == 0)
		return;
	if (q->len + n > q->cap) {
		size_t cap = q->cap ? q->cap : 4096;
		char *b;

		while (cap < q->len + n)
			cap *= 2;
		if ((b = realloc(q->buf, cap)) == NULL) {
			q->failed = true;
			q->len = q->whole;
			return;
		}
		q->buf = b;
		q->cap = cap;
	}
	memcpy(q->buf + q->len, p, n);
	q->len += n;
}

static void q_tag(queue_t *q, char tag)
{
	q_put(q, &tag, 1);
}

static void q_u64(queue_t *q, uint64_t v)
{
	q_put(q, &v, sizeof(v));
}

/* A string of n bytes, or none (s NULL). */
static void q_str(queue_t *q, const char *s, size_t n)
{
	q_u64(q, s != NULL ? (uint64_t)n : UINT64_MAX);
	if (s != NULL)
		q_put(q, s, n);
}

static void q_cstr(queue_t *q, const char *s)
{
	q_str(q, s, s != NULL ? strlen(s) : 0);
}

static void q_end(queue_t *q)
{
	if (!q->failed)
		q->whole = q->len;
}

static void q_reset(queue_t *q)
{
	q->len = q->whole = 0;
	q->failed = false;
	if (q->cap > (1u << 20)) { /* a burst's room is given back */
		free(q->buf);
		q->buf = NULL;
		q->cap = 0;
	}
}

static void q_free(queue_t *q)
{
	free(q->buf);
	*q = (queue_t){ 0 };
}

typedef struct {
	PyObject_HEAD dtrace_hdl_t *dtp; /* NULL once closed */
	dtrace_prog_t *prog;		 /* the last compiled program, not yet executed */
	bool busy;			 /* a call runs without the GIL */
	bool quiet;			 /* the quiet option, as work() began */
	queue_t q;			 /* the firings dtrace_consume() passed */
	queue_t ev;			 /* faults and drops since the last take */
} HandleObject;

/* Reading it back (the queue is ours: its entries are whole). */
typedef struct {
	const char *p, *end;
} reader_t;

static reader_t q_reader(const queue_t *q)
{
	return (reader_t){ q->buf, q->buf != NULL ? q->buf + q->whole : NULL };
}

static uint64_t r_u64(reader_t *r)
{
	uint64_t v;

	memcpy(&v, r->p, sizeof(v));
	r->p += sizeof(v);
	return v;
}

static char r_tag(reader_t *r)
{
	return *r->p++;
}

/* A string as libdtrace's JSON gave it: UTF-8, each other byte as U+00XX. */
static PyObject *text_n(const char *s, size_t n)
{
	PyObject *u = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, NULL), *fixed;
	Py_UCS4 *cps;
	Py_ssize_t len;

	if (u != NULL || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
		return u;
	PyErr_Clear();
	if ((u = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "surrogateescape")) == NULL)
		return NULL;
	cps = PyUnicode_AsUCS4Copy(u);
	len = PyUnicode_GET_LENGTH(u);
	Py_DECREF(u);
	if (cps == NULL)
		return NULL;
	for (Py_ssize_t i = 0; i < len; i++)
		if (cps[i] >= 0xdc80 && cps[i] <= 0xdcff)
			cps[i] -= 0xdc00;
	fixed = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, cps, len);
	PyMem_Free(cps);
	return fixed;
}

/* A string read back: str, or None for none. */
static PyObject *r_str(reader_t *r)
{
	uint64_t n = r_u64(r);
	PyObject *o;

	if (n == UINT64_MAX)
		Py_RETURN_NONE;
	o = text_n(r->p, (size_t)n);
	r->p += n;
	return o;
}

static const char *r_raw(reader_t *r, size_t *n)
{
	const char *p;

	*n = (size_t)r_u64(r);
	p = r->p;
	r->p += *n;
	return p;
}

/* d[key] = v, v's reference taken (v NULL: an error set). */
static int set_item(PyObject *d, const char *key, PyObject *v)
{
	int rc;

	if (v == NULL)
		return -1;
	rc = PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
	return rc;
}

/* set_item of a string that may be none: no key then. */
static int set_str(PyObject *d, const char *key, reader_t *r)
{
	PyObject *v = r_str(r);

	if (v == Py_None) {
		Py_DECREF(v);
		return 0;
	}
	return set_item(d, key, v);
}

/*
 * Data (trace(), tracemem(), printf(), print(), stack() and aggregation
 * keys), each tag and what follows it:
 *   'i' int64  'u' uint64  'f' double  's' a string  'b' bytes (tracemem)
 *   'l' bytes given as a list of ints (a struct traced)
 *   'y' a symbol: kernel, pid, address, module, symbol, offset, name
 *   'k' a stack: kernel, pid, frames, each address, module, symbol, offset, name
 *   'p' print() of a struct, union or array: address, type, then its 'b'
 */
static void q_datum(queue_t *q, const dtrace_record_t *rec)
{
	switch (rec->dtr_kind) {
	case DTRACE_REC_INT:
		q_tag(q, rec->dtr_signed ? 'i' : 'u');
		q_u64(q, rec->dtr_signed ? (uint64_t)rec->dtr_int : rec->dtr_uint);
		break;
	case DTRACE_REC_FLOAT:
		q_tag(q, 'f');
		q_put(q, &rec->dtr_float, sizeof(rec->dtr_float));
		break;
	case DTRACE_REC_STRING:
	case DTRACE_REC_PRINTF:
		q_tag(q, 's');
		q_str(q, rec->dtr_str != NULL ? rec->dtr_str : "", rec->dtr_len);
		break;
	case DTRACE_REC_BYTES:
		if (strcmp(rec->dtr_action, "print") == 0) { /* the pointer, its type, its bytes */
			q_tag(q, 'p');
			q_u64(q, rec->dtr_uint);
			q_cstr(q, rec->dtr_type);
		}
		q_tag(q,
		      strcmp(rec->dtr_action, "trace") == 0 || strcmp(rec->dtr_action, "key") == 0
			  ? 'l'
			  : 'b');
		q_str(q, rec->dtr_bytes != NULL ? rec->dtr_bytes : "", rec->dtr_len);
		break;
	case DTRACE_REC_SYM:
		q_tag(q, 'y');
		q_tag(q, strcmp(rec->dtr_type, "_symaddr_t") == 0);
		q_u64(q, (uint64_t)(int64_t)rec->dtr_pid);
		q_u64(q, rec->dtr_uint);
		q_cstr(q, rec->dtr_module);
		q_cstr(q, rec->dtr_symbol);
		q_u64(q, rec->dtr_offset);
		q_cstr(q, rec->dtr_str != NULL ? rec->dtr_str : "");
		break;
	case DTRACE_REC_STACK:
		q_tag(q, 'k');
		q_tag(q, rec->dtr_pid == 0);
		q_u64(q, (uint64_t)(int64_t)rec->dtr_pid);
		q_u64(q, rec->dtr_nframes);
		for (unsigned i = 0; i < rec->dtr_nframes; i++) {
			bool sym = rec->dtr_fsymbols != NULL && rec->dtr_fsymbols[i] != NULL;

			q_u64(q, rec->dtr_pcs[i]);
			q_cstr(q, rec->dtr_fmodules != NULL ? rec->dtr_fmodules[i] : NULL);
			q_cstr(q, sym ? rec->dtr_fsymbols[i] : NULL);
			q_u64(q, sym && rec->dtr_foffsets != NULL ? rec->dtr_foffsets[i] : 0);
			q_cstr(q, rec->dtr_frames[i] != NULL ? rec->dtr_frames[i] : "");
		}
		break;
	default: /* nothing else is data */
		q_tag(q, 's');
		q_cstr(q, "");
		break;
	}
}

/* A float as json.loads read "%.17g": an int when written without a point. */
static PyObject *float_value(double d)
{
	if (!isfinite(d))
		Py_RETURN_NONE;
	if (d == floor(d) && fabs(d) < 1e17)
		return PyLong_FromDouble(d);
	return PyFloat_FromDouble(d);
}

static PyObject *r_datum(reader_t *r);

static PyObject *r_stack(reader_t *r)
{
	int kernel = r_tag(r);
	uint64_t pid = r_u64(r), n = r_u64(r);
	PyObject *d = PyDict_New(), *frames = PyList_New(0);

	if (d == NULL || frames == NULL)
		goto fail;
	if (!kernel && set_item(d, "pid", PyLong_FromLongLong((long long)pid)) != 0)
		goto fail;
	for (uint64_t i = 0; i < n; i++) {
		PyObject *f = PyDict_New();
		int rc;

		if (f == NULL)
			goto fail;
		rc = set_item(f, "address", PyLong_FromUnsignedLongLong(r_u64(r))) != 0 ||
		     set_str(f, "module", r) != 0;
		if (rc == 0) {
			PyObject *sym = r_str(r);
			uint64_t off = r_u64(r);

			if (sym == NULL)
				rc = -1;
			else if (sym == Py_None)
				Py_DECREF(sym);
			else
				rc = set_item(f, "symbol", sym) != 0 ||
				     set_item(f, "offset", PyLong_FromUnsignedLongLong(off)) != 0;
		}
		if (rc != 0 || set_str(f, "name", r) != 0 || PyList_Append(frames, f) != 0) {
			Py_DECREF(f);
			goto fail;
		}
		Py_DECREF(f);
	}
	if (PyDict_SetItemString(d, "frames", frames) != 0)
		goto fail;
	Py_DECREF(frames);
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(frames);
	return NULL;
}

static PyObject *r_sym(reader_t *r)
{
	int kernel = r_tag(r);
	uint64_t pid = r_u64(r), addr = r_u64(r);
	PyObject *d = PyDict_New(), *sym;
	uint64_t off;

	if (d == NULL)
		return NULL;
	if ((!kernel && set_item(d, "pid", PyLong_FromLongLong((long long)pid)) != 0) ||
	    set_item(d, "address", PyLong_FromUnsignedLongLong(addr)) != 0 ||
	    set_str(d, "module", r) != 0 || (sym = r_str(r)) == NULL) {
		Py_DECREF(d);
		return NULL;
	}
	off = r_u64(r);
	if (sym != Py_None) {
		if (set_item(d, "symbol", sym) != 0 ||
		    set_item(d, "offset", PyLong_FromUnsignedLongLong(off)) != 0) {
			Py_DECREF(d);
			return NULL;
		}
	} else {
		Py_DECREF(sym);
	}
	if (set_str(d, "name", r) != 0) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* The Python value of one datum, as docs/python.md describes it. */
static PyObject *r_datum(reader_t *r)
{
	const char *p;
	size_t n;
	double f;

	switch (r_tag(r)) {
	case 'i': return PyLong_FromLongLong((long long)r_u64(r));
	case 'u': return PyLong_FromUnsignedLongLong(r_u64(r));
	case 'f':
		memcpy(&f, r->p, sizeof(f));
		r->p += sizeof(f);
		return float_value(f);
	case 's': return r_str(r);
	case 'b': p = r_raw(r, &n); return PyBytes_FromStringAndSize(p, (Py_ssize_t)n);
	case 'l': {
		PyObject *l;

		p = r_raw(r, &n);
		if ((l = PyList_New((Py_ssize_t)n)) == NULL)
			return NULL;
		for (size_t i = 0; i < n; i++)
			PyList_SET_ITEM(l, (Py_ssize_t)i, PyLong_FromLong((unsigned char)p[i]));
		return l;
	}
	case 'y': return r_sym(r);
	case 'k': return r_stack(r);
	case 'p': {
		uint64_t addr = r_u64(r);
		PyObject *d = PyDict_New();

		if (d == NULL)
			return NULL;
		if (set_item(d, "address", PyLong_FromUnsignedLongLong(addr)) != 0 ||
		    set_item(d, "type", r_str(r)) != 0 || set_item(d, "bytes", r_datum(r)) != 0) {
			Py_DECREF(d);
			return NULL;
		}
		return d;
	}
	}
	PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue entry");
	return NULL;
}

static PyTypeObject HandleType;
static PyObject *DTraceError, *CompileError;

/* Raise DTraceError("what: message"), its code in .code. */
static PyObject *dt_error(HandleObject *h, const char *what)
{
	int err = dtrace_errno(h->dtp);
	PyObject *code,
	    *e = PyObject_CallFunction(
		DTraceError, "N", PyUnicode_FromFormat("%s: %s", what, dtrace_errmsg(h->dtp, err)));

	if (e == NULL)
		return NULL;
	code = PyLong_FromLong(err);
	if (code != NULL && PyObject_SetAttrString(e, "code", code) == 0)
		PyErr_SetObject(DTraceError, e);
	Py_XDECREF(code);
	Py_DECREF(e);
	return NULL;
}

/* Enter a call on an open, idle handle. */
static int enter(HandleObject *h)
{
	if (h->dtp == NULL) {
		PyErr_SetString(PyExc_ValueError, "the dtrace handle is closed");
		return -1;
	}
	if (h->busy) {
		PyErr_SetString(PyExc_RuntimeError,
				"the dtrace handle is in use by another thread");
		return -1;
	}
	return 0;
}

static void on_errdata(const dtrace_errdata_t *e, void *arg);
static void on_dropdata(const dtrace_dropdata_t *d, void *arg);

static int Handle_init(HandleObject *self, PyObject *args, PyObject *kw)
{
	int err = 0;

	if (!PyArg_ParseTuple(args, ":Handle") || (kw != NULL && PyDict_Size(kw) > 0)) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "Handle() takes no arguments");
		return -1;
	}
	if (self->dtp != NULL)
		return 0;
	if ((self->dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		PyErr_Format(DTraceError, "dtrace_open: %s", dtrace_errmsg(NULL, err));
		return -1;
	}
	if (dtrace_handle_errdata(self->dtp, on_errdata, self) != 0 ||
	    dtrace_handle_dropdata(self->dtp, on_dropdata, self) != 0) {
		dt_error(self, "dtrace_open");
		dtrace_close(self->dtp);
		self->dtp = NULL;
		return -1;
	}
	return 0;
}

static void close_handle(HandleObject *self)
{
	dtrace_hdl_t *dtp = self->dtp;

	if (self->prog != NULL)
		dtrace_program_destroy(dtp, self->prog);
	self->prog = NULL;
	self->dtp = NULL; /* closed for every other caller from now on */
	if (dtp != NULL) {
		PyThreadState *ts = PyEval_SaveThread(); /* detaching can take a while */

		self->busy = true;
		dtrace_close(dtp);
		self->busy = false;
		PyEval_RestoreThread(ts);
	}
	q_free(&self->q);
	q_free(&self->ev);
}

static void Handle_dealloc(HandleObject *self)
{
	if (!self->busy)
		close_handle(self);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Handle_close(HandleObject *self, PyObject *unused)
{
	(void)unused;
	if (self->busy) {
		PyErr_SetString(PyExc_RuntimeError,
				"the dtrace handle is in use by another thread");
		return NULL;
	}
	close_handle(self);
	Py_RETURN_NONE;
}

static PyObject *Handle_setopt(HandleObject *self, PyObject *args)
{
	const char *name, *value = NULL;

	if (!PyArg_ParseTuple(args, "s|z:setopt", &name, &value) || enter(self) != 0)
		return NULL;
	if (dtrace_setopt(self->dtp, name, value) != 0) {
		PyObject *what = PyUnicode_FromFormat("option %s", name);

		if (what != NULL)
			dt_error(self, PyUnicode_AsUTF8(what));
		Py_XDECREF(what);
		return NULL;
	}
	Py_RETURN_NONE;
}

/* A C string as str, bytes that are not UTF-8 replaced; NULL (an error set) if no memory. */
static PyObject *text(const char *s)
{
	return PyUnicode_DecodeUTF8(s != NULL ? s : "", (Py_ssize_t)strlen(s != NULL ? s : ""),
				    "replace");
}

/* compile(source, args, flags): raise CompileError with the diagnostic. */
static PyObject *Handle_compile(HandleObject *self, PyObject *args)
{
	const char *src;
	PyObject *list, *seq = NULL;
	unsigned flags = 0;
	char **argv = NULL;
	Py_ssize_t argc = 0;
	dtrace_prog_t *prog;

	if (!PyArg_ParseTuple(args, "sO|I:compile", &src, &list, &flags) || enter(self) != 0)
		return NULL;
	if ((seq = PySequence_Fast(list, "compile(): args must be a sequence of str")) == NULL)
		return NULL;
	argc = PySequence_Fast_GET_SIZE(seq);
	if ((argv = PyMem_Calloc((size_t)argc + 2, sizeof(char *))) == NULL) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	argv[0] = (char *)"python";
	for (Py_ssize_t i = 0; i < argc; i++) {
		PyObject *a = PySequence_Fast_GET_ITEM(seq, i);

		if (!PyUnicode_Check(a) || (argv[i + 1] = (char *)PyUnicode_AsUTF8(a)) == NULL) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_TypeError,
					     "compile(): macro argument %zd is not a str", i + 1);
			PyMem_Free(argv);
			Py_DECREF(seq);
			return NULL;
		}
	}
	prog = dtrace_program_strcompile(self->dtp, src, "<program>", flags, (int)argc + 1, argv);
	PyMem_Free(argv);
	Py_DECREF(seq);
	if (prog == NULL) {
		const dtrace_diag_t *dg = dtrace_lastdiag(self->dtp);
		PyObject *e;

		if (dg == NULL)
			return dt_error(self, "compile");
		/* the source line may hold bytes that are not UTF-8 (or be cut in a character) */
		e = Py_BuildValue("(NNNIIN)", text(dg->dtdg_message), text(dg->dtdg_tag),
				  text(dg->dtdg_file), dg->dtdg_line, dg->dtdg_column,
				  text(dg->dtdg_source));
		if (e != NULL)
			PyErr_SetObject(CompileError, e);
		Py_XDECREF(e);
		return NULL;
	}
	if (self->prog != NULL)
		dtrace_program_destroy(self->dtp, self->prog);
	self->prog = prog;
	Py_RETURN_NONE;
}

/* exec(): enable the last program; returns (descriptions, probes matched). */
static PyObject *Handle_exec(HandleObject *self, PyObject *unused)
{
	dtrace_proginfo_t info;

	(void)unused;
	if (enter(self) != 0)
		return NULL;
	if (self->prog == NULL) {
		PyErr_SetString(PyExc_RuntimeError, "exec(): no program compiled");
		return NULL;
	}
	if (dtrace_program_exec(self->dtp, self->prog, &info) != 0)
		return dt_error(self, "exec");
	self->prog = NULL; /* the handle owns it now */
	return Py_BuildValue("(II)", info.dpi_descs, info.dpi_matches);
}

static PyObject *Handle_spawn(HandleObject *self, PyObject *list)
{
	PyObject *seq;
	Py_ssize_t n;
	char **argv;
	int pid;

	if (enter(self) != 0)
		return NULL;
	if ((seq = PySequence_Fast(list, "spawn(): argv must be a sequence of str")) == NULL)
		return NULL;
	if ((n = PySequence_Fast_GET_SIZE(seq)) == 0) {
		Py_DECREF(seq);
		PyErr_SetString(PyExc_ValueError, "spawn(): argv is empty");
		return NULL;
	}
	if ((argv = PyMem_Calloc((size_t)n + 1, sizeof(char *))) == NULL) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *a = PySequence_Fast_GET_ITEM(seq, i);

		if (!PyUnicode_Check(a) || (argv[i] = (char *)PyUnicode_AsUTF8(a)) == NULL) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_TypeError, "spawn(): argv[%zd] is not a str", i);
			PyMem_Free(argv);
			Py_DECREF(seq);
			return NULL;
		}
	}
	pid = dtrace_proc_create(self->dtp, argv);
	PyMem_Free(argv);
	Py_DECREF(seq);
	if (pid < 0)
		return dt_error(self, "spawn");
	return PyLong_FromLong(pid);
}

static PyObject *Handle_grab(HandleObject *self, PyObject *args)
{
	int pid;

	if (!PyArg_ParseTuple(args, "i:grab", &pid) || enter(self) != 0)
		return NULL;
	if (dtrace_proc_grab(self->dtp, pid) != 0)
		return dt_error(self, "grab");
	Py_RETURN_NONE;
}

/* go(continue_target): start tracing, then let the target run. */
static PyObject *Handle_go(HandleObject *self, PyObject *args)
{
	int cont = 0, rc;
	int64_t oformat = 0;
	PyThreadState *ts;

	if (!PyArg_ParseTuple(args, "p:go", &cont) || enter(self) != 0)
		return NULL;
	/*
	 * The records do not depend on oformat, but a program that asks for
	 * text output (#pragma D option oformat=text) is refused, as it was
	 * when the Consumer read JSON.
	 */
	if (dtrace_getopt(self->dtp, "oformat", &oformat) == 0 && oformat != DTRACEOPT_UNSET &&
	    !dtrace_oformat(self->dtp))
		return PyErr_Format(PyExc_ValueError,
				    "go: oformat=text was set; a Consumer reads records");
	self->busy = true;
	ts = PyEval_SaveThread();
	rc = dtrace_go(self->dtp);
	PyEval_RestoreThread(ts);
	self->busy = false;
	if (rc != 0)
		return dt_error(self, "go");
	if (cont && dtrace_proc_continue(self->dtp) != 0)
		return dt_error(self, "continue");
	Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- records */

static bool is_data(const char *action)
{
	static const char *const data[] = { "trace", "tracemem", "printf", "print",
					    "stack", "ustack",	 "jstack" };

	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		if (strcmp(action, data[i]) == 0)
			return true;
	return false;
}

static void q_desc(queue_t *q, const dtrace_probedesc_t *pd)
{
	q_u64(q, pd->dtpd_id);
	q_cstr(q, pd->dtpd_provider);
	q_cstr(q, pd->dtpd_mod);
	q_cstr(q, pd->dtpd_func);
	q_cstr(q, pd->dtpd_name);
}

/* A firing: 'P' cpu, the probe, its data, then 'E'. */
static int on_probe(const dtrace_probedata_t *data, void *arg)
{
	HandleObject *h = arg;

	q_tag(&h->q, 'P');
	q_u64(&h->q, (uint64_t)(int64_t)data->dtpda_cpu);
	q_desc(&h->q, data->dtpda_pdesc);
	return DTRACE_CONSUME_THIS;
}

static int on_rec(const dtrace_probedata_t *data, const dtrace_record_t *rec, void *arg)
{
	HandleObject *h = arg;

	(void)data;
	if (rec == NULL) {
		q_tag(&h->q, 'E');
		q_end(&h->q);
	} else if (is_data(rec->dtr_action)) {
		q_datum(&h->q, rec);
	}
	return DTRACE_CONSUME_THIS;
}

/* Faults: 'F' epid, the probe, fault, address (or none), action, offset, message. */
static void on_errdata(const dtrace_errdata_t *e, void *arg)
{
	HandleObject *h = arg;
	queue_t *q = &h->ev;

	q_tag(q, 'F');
	q_u64(q, e->dteda_epid);
	q_desc(q, e->dteda_pdesc);
	q_cstr(q, e->dteda_fault);
	q_tag(q, e->dteda_fault != NULL && strcmp(e->dteda_fault, "invalid address") == 0);
	q_u64(q, e->dteda_addr);
	q_u64(q, (uint64_t)(int64_t)e->dteda_action);
	q_u64(q, (uint64_t)(int64_t)e->dteda_offset);
	q_cstr(q, e->dteda_msg);
	q_end(q);
}

/* Drops: 'D' kind, cpu, count, message. */
static void on_dropdata(const dtrace_dropdata_t *d, void *arg)
{
	HandleObject *h = arg;
	queue_t *q = &h->ev;

	q_tag(q, 'D');
	q_cstr(q, d->dtdda_kind);
	q_u64(q, (uint64_t)(int64_t)d->dtdda_cpu);
	q_u64(q, d->dtdda_drops);
	q_cstr(q, d->dtdda_msg);
	q_end(q);
}

/* (cpu, id, provider, module, function, name, data) of each firing in the queue. */
static PyObject *take_records(HandleObject *h)
{
	reader_t r = q_reader(&h->q);
	PyObject *out = PyList_New(0), *row = NULL, *data = NULL;

	if (out == NULL)
		return NULL;
	while (r.p < r.end) {
		char tag = r_tag(&r);

		if (tag == 'P') {
			int64_t cpu = (int64_t)r_u64(&r);
			uint64_t id = r_u64(&r);

			Py_XDECREF(row);
			if ((row = PyTuple_New(7)) == NULL)
				goto fail;
			PyTuple_SET_ITEM(row, 0,
					 cpu >= 0 ? PyLong_FromLongLong(cpu) : Py_NewRef(Py_None));
			PyTuple_SET_ITEM(row, 1, PyLong_FromUnsignedLongLong(id));
			for (int i = 2; i < 6; i++)
				PyTuple_SET_ITEM(row, i, r_str(&r));
			PyTuple_SET_ITEM(row, 6, data = PyList_New(0));
			for (int i = 0; i < 7; i++)
				if (PyTuple_GET_ITEM(row, i) == NULL)
					goto fail;
		} else if (tag == 'E') {
			/* quiet: a firing that traced nothing makes no record, as in JSON */
			if (row != NULL && (!h->quiet || PyList_GET_SIZE(data) > 0) &&
			    PyList_Append(out, row) != 0)
				goto fail;
			Py_CLEAR(row);
		} else {
			PyObject *v;

			r.p--;
			if ((v = r_datum(&r)) == NULL || data == NULL ||
			    PyList_Append(data, v) != 0) {
				Py_XDECREF(v);
				goto fail;
			}
			Py_DECREF(v);
		}
	}
	Py_XDECREF(row);
	return out;
fail:
	Py_XDECREF(row);
	Py_DECREF(out);
	return NULL;
}

/*
 * work() -> (status, records): status 0 more to come, 1 done, -1 an error
 * (the records read before it still come; error() then says what it
 * was); records as take_records() makes them.  When making them fails
 * (no memory), they stay queued for the next call.
 */
static PyObject *Handle_work(HandleObject *self, PyObject *unused)
{
	dtrace_consume_opts_t o = {
		.sz = sizeof(o), .probe = on_probe, .rec = on_rec, .arg = self
	};
	int64_t quiet = 0;
	PyThreadState *ts;
	PyObject *recs;
	bool failed;
	int rc;

	(void)unused;
	if (enter(self) != 0)
		return NULL;
	self->quiet = dtrace_getopt(self->dtp, "quiet", &quiet) == 0 && quiet != DTRACEOPT_UNSET &&
		      quiet != 0;
	self->busy = true;
	ts = PyEval_SaveThread();
	rc = (int)dtrace_consume(self->dtp, &o);
	PyEval_RestoreThread(ts);
	self->busy = false;
	failed = self->q.failed;
	if ((recs = take_records(self)) == NULL)
		return NULL;
	q_reset(&self->q);
	if (failed) { /* what did not fit is lost: say so */
		Py_DECREF(recs);
		return PyErr_NoMemory();
	}
	return Py_BuildValue("(iN)", rc, recs);
}

/* error(what): raise DTraceError("what: <the handle's last error>"). */
static PyObject *Handle_error(HandleObject *self, PyObject *args)
{
	const char *what;

	if (!PyArg_ParseTuple(args, "s:error", &what) || enter(self) != 0)
		return NULL;
	return dt_error(self, what);
}

/* ---------------------------------------------------------------- aggregations */

/*
 * An entry: 'A' name, its keys' count and data, then 'v' and its value,
 * or 'q' (quantize) or 'l' (lquantize, llquantize: open ends as None) and
 * the buckets that hold something, each lo, hi, count.
 */
static int on_agg(const dtrace_aggdata_t *a, void *arg)
{
	queue_t *q = arg;
	unsigned n = 0;

	q_tag(q, 'A');
	q_cstr(q, a->dtada_name);
	q_u64(q, a->dtada_nkeys);
	for (unsigned k = 0; k < a->dtada_nkeys; k++)
		q_datum(q, &a->dtada_keys[k]);
	if (a->dtada_kind != DTRACE_AGG_QUANTIZE && a->dtada_kind != DTRACE_AGG_LQUANTIZE &&
	    a->dtada_kind != DTRACE_AGG_LLQUANTIZE) {
		q_tag(q, 'v');
		q_u64(q, (uint64_t)a->dtada_value);
		q_end(q);
		return 0;
	}
	q_tag(q, a->dtada_kind == DTRACE_AGG_QUANTIZE ? 'q' : 'l');
	for (unsigned i = 0; i < a->dtada_nbuckets; i++)
		n += a->dtada_buckets[i].dtab_count != 0;
	q_u64(q, n);
	for (unsigned i = 0; i < a->dtada_nbuckets; i++) {
		const dtrace_aggbucket_t *b = &a->dtada_buckets[i];

		if (b->dtab_count == 0)
			continue;
		q_u64(q, (uint64_t)b->dtab_lo);
		q_u64(q, (uint64_t)b->dtab_hi);
		q_u64(q, (uint64_t)b->dtab_count);
	}
	q_end(q);
	return 0;
}

/* One bucket bound: None for an open end of lquantize() and llquantize(). */
static PyObject *bound(int64_t v, bool open, int64_t end)
{
	if (open && v == end)
		Py_RETURN_NONE;
	return PyLong_FromLongLong((long long)v);
}

/* The value of one entry: an int, or a list of (min, max, count). */
static PyObject *r_aggvalue(reader_t *r)
{
	char tag = r_tag(r);
	uint64_t n;
	PyObject *l;

	if (tag == 'v')
		return PyLong_FromLongLong((long long)(int64_t)r_u64(r));
	n = r_u64(r);
	if ((l = PyList_New((Py_ssize_t)n)) == NULL)
		return NULL;
	for (uint64_t i = 0; i < n; i++) {
		int64_t lo = (int64_t)r_u64(r), hi = (int64_t)r_u64(r), c = (int64_t)r_u64(r);
		PyObject *b = Py_BuildValue("(NNL)", bound(lo, tag == 'l', INT64_MIN),
					    bound(hi, tag == 'l', INT64_MAX), (long long)c);

		if (b == NULL) {
			Py_DECREF(l);
			return NULL;
		}
		PyList_SET_ITEM(l, (Py_ssize_t)i, b);
	}
	return l;
}

/* [(name, keys tuple, value)] of the entries in q, in their order. */
static PyObject *take_aggs(queue_t *q)
{
	reader_t r = q_reader(q);
	PyObject *out = PyList_New(0);

	while (out != NULL && r.p < r.end) {
		PyObject *name, *keys = NULL, *v = NULL, *row;
		uint64_t nkeys;

		r.p++; /* 'A' */
		if ((name = r_str(&r)) == NULL)
			goto fail;
		nkeys = r_u64(&r);
		if ((keys = PyTuple_New((Py_ssize_t)nkeys)) == NULL)
			goto fail_entry;
		for (uint64_t k = 0; k < nkeys; k++) {
			PyObject *key = r_datum(&r);

			if (key == NULL)
				goto fail_entry;
			PyTuple_SET_ITEM(keys, (Py_ssize_t)k, key);
		}
		if ((v = r_aggvalue(&r)) == NULL)
			goto fail_entry;
		if ((row = PyTuple_Pack(3, name, keys, v)) == NULL ||
		    PyList_Append(out, row) != 0) {
			Py_XDECREF(row);
			goto fail_entry;
		}
		Py_DECREF(row);
		Py_DECREF(name);
		Py_DECREF(keys);
		Py_DECREF(v);
		continue;
	fail_entry:
		Py_DECREF(name);
		Py_XDECREF(keys);
		Py_XDECREF(v);
		goto fail;
	}
	return out;
fail:
	Py_XDECREF(out);
	return NULL;
}

/* aggregate() -> [(name, keys, value)]: every aggregation's current entries. */
static PyObject *Handle_aggregate(HandleObject *self, PyObject *unused)
{
	queue_t q = { 0 };
	PyThreadState *ts;
	PyObject *out;
	int rc;

	(void)unused;
	if (enter(self) != 0)
		return NULL;
	self->busy = true;
	ts = PyEval_SaveThread();
	rc = dtrace_aggregate_walk(self->dtp, NULL, on_agg, &q);
	PyEval_RestoreThread(ts);
	self->busy = false;
	if (rc != 0) {
		q_free(&q);
		return dt_error(self, "aggregations");
	}
	out = q.failed ? PyErr_NoMemory() : take_aggs(&q);
	q_free(&q);
	return out;
}

/* sleep(): wait for data, the target's exit, or switchrate; signals interrupt it. */
static PyObject *Handle_sleep(HandleObject *self, PyObject *unused)
{
	PyThreadState *ts;

	(void)unused;
	if (enter(self) != 0)
		return NULL;
	self->busy = true;
	ts = PyEval_SaveThread();
	dtrace_sleep(self->dtp);
	PyEval_RestoreThread(ts);
	self->busy = false;
	if (PyErr_CheckSignals() != 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *Handle_stop(HandleObject *self, PyObject *unused)
{
	(void)unused;
	if (enter(self) != 0)
		return NULL;
	if (dtrace_stop(self->dtp) != 0)
		return dt_error(self, "stop");
	Py_RETURN_NONE;
}

/* target_exited() -> None while it runs (or without one), else its wait status. */
static PyObject *Handle_target_exited(HandleObject *self, PyObject *unused)
{
	int st = 0;

	(void)unused;
	if (enter(self) != 0)
		return NULL;
	if (!dtrace_proc_exited(self->dtp, &st))
		Py_RETURN_NONE;
	return PyLong_FromLong(st);
}

static PyObject *Handle_status(HandleObject *self, PyObject *unused)
{
	(void)unused;
	if (enter(self) != 0)
		return NULL;
	return Py_BuildValue("(ii)", dtrace_status(self->dtp), dtrace_exit_value(self->dtp));
}

static PyObject *Handle_target(HandleObject *self, PyObject *unused)
{
	(void)unused;
	if (enter(self) != 0)
		return NULL;
	return PyLong_FromLong(dtrace_proc_target(self->dtp));
}

/*
 * take_events() -> (errors, drops, messages) since the last call: faults
 * and drops as docs/json.md's objects (dicts), and the messages dtrace(1)
 * prints for them (an error of an action the library does, such as a
 * failed system(), has a message only).
 */
static PyObject *Handle_take_events(HandleObject *self, PyObject *unused)
{
	reader_t r = q_reader(&self->ev);
	PyObject *errors = PyList_New(0), *drops = PyList_New(0), *msgs = PyList_New(0);
	PyObject *d = NULL, *msg = NULL;

	(void)unused;
	if (self->busy) { /* the handlers may be writing to the queue */
		PyErr_SetString(PyExc_RuntimeError,
				"the dtrace handle is in use by another thread");
		goto fail;
	}
	if (errors == NULL || drops == NULL || msgs == NULL)
		goto fail;
	while (r.p < r.end) {
		char tag = r_tag(&r);

		if ((d = PyDict_New()) == NULL)
			goto fail;
		if (tag == 'F') {
			int64_t action, offset;
			uint64_t addr;
			int has_addr;

			if (set_item(d, "type", PyUnicode_FromString("error")) != 0 ||
			    set_item(d, "epid", PyLong_FromUnsignedLongLong(r_u64(&r))) != 0 ||
			    set_item(d, "id", PyLong_FromUnsignedLongLong(r_u64(&r))) != 0 ||
			    set_item(d, "provider", r_str(&r)) != 0 ||
			    set_item(d, "module", r_str(&r)) != 0 ||
			    set_item(d, "function", r_str(&r)) != 0 ||
			    set_item(d, "name", r_str(&r)) != 0 ||
			    set_item(d, "fault", r_str(&r)) != 0)
				goto fail;
			has_addr = r_tag(&r);
			addr = r_u64(&r);
			action = (int64_t)r_u64(&r);
			offset = (int64_t)r_u64(&r);
			if ((has_addr &&
			     set_item(d, "address", PyLong_FromUnsignedLongLong(addr)) != 0) ||
			    set_item(d, "action", PyLong_FromLongLong((long long)action)) != 0 ||
			    set_item(d, "offset", PyLong_FromLongLong((long long)offset)) != 0 ||
			    (msg = r_str(&r)) == NULL)
				goto fail;
			/* the library's own action errors were never error objects */
			if (action >= 0 && PyList_Append(errors, d) != 0)
				goto fail;
		} else {
			int64_t cpu;

			if (set_item(d, "type", PyUnicode_FromString("drop")) != 0 ||
			    set_item(d, "kind", r_str(&r)) != 0)
				goto fail;
			cpu = (int64_t)r_u64(&r);
			if (set_item(d, "count", PyLong_FromUnsignedLongLong(r_u64(&r))) != 0 ||
			    (cpu >= 0 &&
			     set_item(d, "cpu", PyLong_FromLongLong((long long)cpu)) != 0) ||
			    (msg = r_str(&r)) == NULL || PyList_Append(drops, d) != 0)
				goto fail;
		}
		if (PyList_Append(msgs, msg) != 0)
			goto fail;
		Py_CLEAR(msg);
		Py_CLEAR(d);
	}
	q_reset(&self->ev);
	return Py_BuildValue("(NNN)", errors, drops, msgs);
fail:
	Py_XDECREF(d);
	Py_XDECREF(msg);
	Py_XDECREF(errors);
	Py_XDECREF(drops);
	Py_XDECREF(msgs);
	return NULL;
}

static PyMethodDef Handle_methods[] = {
	{ "close", (PyCFunction)Handle_close, METH_NOARGS, "Detach everything; idempotent." },
	{ "setopt", (PyCFunction)Handle_setopt, METH_VARARGS, "setopt(name, value=None)" },
	{ "compile", (PyCFunction)Handle_compile, METH_VARARGS, "compile(source, args, flags=0)" },
	{ "exec", (PyCFunction)Handle_exec, METH_NOARGS, "exec() -> (descriptions, matches)" },
	{ "spawn", (PyCFunction)Handle_spawn, METH_O, "spawn(argv) -> pid, stopped at entry" },
	{ "grab", (PyCFunction)Handle_grab, METH_VARARGS, "grab(pid)" },
	{ "go", (PyCFunction)Handle_go, METH_VARARGS, "go(continue_target)" },
	{ "work", (PyCFunction)Handle_work, METH_NOARGS, "work() -> (status, records)" },
	{ "error", (PyCFunction)Handle_error, METH_VARARGS, "error(what): raise the last error" },
	{ "aggregate", (PyCFunction)Handle_aggregate, METH_NOARGS,
	  "aggregate() -> [(name, keys, value)]" },
	{ "sleep", (PyCFunction)Handle_sleep, METH_NOARGS, "sleep(): wait without the GIL" },
	{ "stop", (PyCFunction)Handle_stop, METH_NOARGS, "stop(): fire END" },
	{ "target_exited", (PyCFunction)Handle_target_exited, METH_NOARGS, "None or wait status" },
	{ "status", (PyCFunction)Handle_status, METH_NOARGS, "(status, exit value)" },
	{ "target", (PyCFunction)Handle_target, METH_NOARGS, "the target's pid, or 0" },
	{ "take_events", (PyCFunction)Handle_take_events, METH_NOARGS,
	  "(errors, drops, messages) since" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject HandleType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dtrace._consumer.Handle",
	.tp_basicsize = sizeof(HandleObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A libdtrace handle read through its records API (see dtrace.Consumer).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Handle_init,
	.tp_dealloc = (destructor)Handle_dealloc,
	.tp_methods = Handle_methods,
};

static struct PyModuleDef consumer_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "dtrace._consumer",
	.m_doc = "libdtrace handles for dtrace.Consumer",
	.m_size = -1,
};

PyMODINIT_FUNC PyInit__consumer(void);
PyMODINIT_FUNC PyInit__consumer(void)
{
	PyObject *m;

	if (PyType_Ready(&HandleType) < 0 || (m = PyModule_Create(&consumer_module)) == NULL)
		return NULL;
	DTraceError = PyErr_NewExceptionWithDoc("dtrace.DTraceError",
						"A libdtrace call failed (the message says why)",
						PyExc_RuntimeError, NULL);
	CompileError =
	    DTraceError == NULL
		? NULL
		: PyErr_NewExceptionWithDoc("dtrace._consumer.CompileError",
					    "Raw compile error (dtrace.CompileError wraps it)",
					    DTraceError, NULL);
	if (CompileError == NULL || PyModule_AddObjectRef(m, "DTraceError", DTraceError) < 0 ||
	    PyModule_AddObjectRef(m, "CompileError", CompileError) < 0 ||
	    PyModule_AddObjectRef(m, "Handle", (PyObject *)&HandleType) < 0 ||
	    PyModule_AddIntConstant(m, "C_CPP", DTRACE_C_CPP) < 0 ||
	    PyModule_AddIntConstant(m, "C_ZDEFS", DTRACE_C_ZDEFS) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
