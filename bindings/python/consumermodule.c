/*
 * consumermodule.c -- dtrace._consumer: a libdtrace handle for Python.
 *
 * The low layer of dtrace.Consumer (dtrace/consumer.py).  It reads
 * libdtrace's records API: dtrace_consume() for the records of each probe
 * firing, dtrace_aggregate_walk() for the aggregations, and the errdata
 * and dropdata handlers for faults and drops, through the bindings' shared
 * records queue (bindings/common/bc_records.c): the callbacks (they run
 * without the GIL, inside libdtrace) copy what they receive into it, and
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

#include "bc_records.h"

typedef struct {
	PyObject_HEAD dtrace_hdl_t *dtp; /* NULL once closed */
	dtrace_prog_t *prog;		 /* the last compiled program, not yet executed */
	bool busy;			 /* a call runs without the GIL */
	bool quiet;			 /* the quiet option, as work() began */
	bc_sink_t sink;			 /* what dtrace_consume() and the handlers passed */
	PyObject *errors, *drops, *msgs; /* faults and drops read, not yet taken (NULL: none) */
} HandleObject;

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

/* A C string from the queue: str, or None for none. */
static PyObject *str_or_none(const char *s)
{
	if (s == NULL)
		Py_RETURN_NONE;
	return text_n(s, strlen(s));
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
static int set_str(PyObject *d, const char *key, const char *s)
{
	if (s == NULL)
		return 0;
	return set_item(d, key, text_n(s, strlen(s)));
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

/* address, module, symbol and offset (when known), name: of a symbol or a frame. */
static int set_place(PyObject *d, uint64_t addr, const char *module, const char *symbol,
		     uint64_t offset, const char *name)
{
	if (set_item(d, "address", PyLong_FromUnsignedLongLong(addr)) != 0 ||
	    set_str(d, "module", module) != 0)
		return -1;
	if (symbol != NULL && (set_str(d, "symbol", symbol) != 0 ||
			       set_item(d, "offset", PyLong_FromUnsignedLongLong(offset)) != 0))
		return -1;
	return set_str(d, "name", name != NULL ? name : "");
}

static PyObject *r_stack(const bc_value_t *v)
{
	PyObject *d = PyDict_New(), *frames = PyList_New(0);
	bc_reader_t sub = v->sub;
	bc_frame_t fr;

	if (d == NULL || frames == NULL)
		goto fail;
	if (v->pid != 0 && set_item(d, "pid", PyLong_FromLong(v->pid)) != 0)
		goto fail;
	while (bc_read_frame(&sub, &fr) == 1) {
		PyObject *f = PyDict_New();

		if (f == NULL)
			goto fail;
		if (set_place(f, fr.pc, fr.module, fr.symbol, fr.offset, fr.name) != 0 ||
		    PyList_Append(frames, f) != 0) {
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

static PyObject *r_sym(const bc_value_t *v)
{
	PyObject *d = PyDict_New();

	if (d == NULL)
		return NULL;
	/* the kernel's symbols (sym(), func(), mod()) have no pid */
	if ((strcmp(v->type, "_symaddr_t") != 0 &&
	     set_item(d, "pid", PyLong_FromLong(v->pid)) != 0) ||
	    set_place(d, v->addr, v->module, v->symbol, v->offset, v->str) != 0) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/*
 * The Python value of one datum (trace(), tracemem(), printf(), print(),
 * stack() and aggregation keys), as docs/python.md describes it.
 */
static PyObject *r_datum(const bc_value_t *v)
{
	switch (v->kind) {
	case DTRACE_REC_INT:
		return v->is_signed ? PyLong_FromLongLong((long long)v->i)
				    : PyLong_FromUnsignedLongLong(v->u);
	case DTRACE_REC_FLOAT: return float_value(v->f);
	case DTRACE_REC_STRING:
	case DTRACE_REC_PRINTF: return text_n(v->str != NULL ? v->str : "", v->len);
	case DTRACE_REC_BYTES: {
		PyObject *d, *l;

		if (bc_is_print(v)) { /* the pointer, its type, its bytes */
			if ((d = PyDict_New()) == NULL)
				return NULL;
			if (set_item(d, "address", PyLong_FromUnsignedLongLong(v->addr)) != 0 ||
			    set_item(d, "type", str_or_none(v->type)) != 0 ||
			    set_item(d, "bytes",
				     PyBytes_FromStringAndSize(v->str, (Py_ssize_t)v->len)) != 0) {
				Py_DECREF(d);
				return NULL;
			}
			return d;
		}
		/* tracemem() gives bytes; a struct traced, or a key, its bytes as a list of ints */
		if (strcmp(v->action, "trace") != 0 && strcmp(v->action, "key") != 0)
			return PyBytes_FromStringAndSize(v->str, (Py_ssize_t)v->len);
		if ((l = PyList_New((Py_ssize_t)v->len)) == NULL)
			return NULL;
		for (size_t i = 0; i < v->len; i++)
			PyList_SET_ITEM(l, (Py_ssize_t)i,
					PyLong_FromLong((unsigned char)v->str[i]));
		return l;
	}
	case DTRACE_REC_SYM: return r_sym(v);
	case DTRACE_REC_STACK: return r_stack(v);
	default: /* nothing else is data */ return PyUnicode_FromString("");
	}
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
	bc_sink_init(&self->sink, self->dtp, 0);
	if (bc_sink_handlers(&self->sink) != 0) {
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
	bc_sink_fini(&self->sink);
	Py_CLEAR(self->errors);
	Py_CLEAR(self->drops);
	Py_CLEAR(self->msgs);
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

/* A fault's dict (docs/json.md's "error"), or NULL with an error set. */
static PyObject *error_dict(const bc_entry_t *e)
{
	PyObject *d = PyDict_New();

	if (d == NULL)
		return NULL;
	if (set_item(d, "type", PyUnicode_FromString("error")) != 0 ||
	    set_item(d, "epid", PyLong_FromUnsignedLong(e->epid)) != 0 ||
	    set_item(d, "id", PyLong_FromUnsignedLong(e->id)) != 0 ||
	    set_item(d, "provider", str_or_none(e->provider)) != 0 ||
	    set_item(d, "module", str_or_none(e->module)) != 0 ||
	    set_item(d, "function", str_or_none(e->function)) != 0 ||
	    set_item(d, "name", str_or_none(e->name)) != 0 ||
	    set_item(d, "fault", str_or_none(e->fault)) != 0 ||
	    (e->has_addr && set_item(d, "address", PyLong_FromUnsignedLongLong(e->addr)) != 0) ||
	    set_item(d, "action", PyLong_FromLong(e->action)) != 0 ||
	    set_item(d, "offset", PyLong_FromLong(e->offset)) != 0) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *drop_dict(const bc_entry_t *e)
{
	PyObject *d = PyDict_New();

	if (d == NULL)
		return NULL;
	if (set_item(d, "type", PyUnicode_FromString("drop")) != 0 ||
	    set_item(d, "kind", str_or_none(e->dropkind)) != 0 ||
	    set_item(d, "count", PyLong_FromUnsignedLongLong(e->count)) != 0 ||
	    (e->cpu >= 0 && set_item(d, "cpu", PyLong_FromLong(e->cpu)) != 0)) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* (cpu, id, provider, module, function, name, data) of a firing; NULL and no error: none. */
static PyObject *firing_row(HandleObject *h, bc_entry_t *e)
{
	PyObject *row, *data;
	bc_value_t v;
	Py_ssize_t i = 0;

	/* quiet: a firing that traced nothing makes no record, as in JSON */
	if (h->quiet && e->ndata == 0)
		return NULL;
	if ((row = PyTuple_New(7)) == NULL)
		return NULL;
	PyTuple_SET_ITEM(row, 0, e->cpu >= 0 ? PyLong_FromLong(e->cpu) : Py_NewRef(Py_None));
	PyTuple_SET_ITEM(row, 1, PyLong_FromUnsignedLong(e->id));
	PyTuple_SET_ITEM(row, 2, str_or_none(e->provider));
	PyTuple_SET_ITEM(row, 3, str_or_none(e->module));
	PyTuple_SET_ITEM(row, 4, str_or_none(e->function));
	PyTuple_SET_ITEM(row, 5, str_or_none(e->name));
	PyTuple_SET_ITEM(row, 6, data = PyList_New((Py_ssize_t)e->ndata));
	for (int k = 0; k < 7; k++)
		if (PyTuple_GET_ITEM(row, k) == NULL)
			goto fail;
	while (bc_read_value(&e->recs, &v) == 1) {
		PyObject *o;

		if (!v.is_data)
			continue;
		if (i >= (Py_ssize_t)e->ndata || (o = r_datum(&v)) == NULL)
			goto fail;
		PyList_SET_ITEM(data, i++, o);
	}
	if (i != (Py_ssize_t)e->ndata || e->recs.bad) {
		PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue entry");
		goto fail;
	}
	return row;
fail:
	if (!PyErr_Occurred())
		PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue entry");
	Py_DECREF(row);
	return NULL;
}

/* (list, list, list) append: 0, or -1 with an error set. */
static int append_events(HandleObject *h, PyObject *errors, PyObject *drops, PyObject *msgs)
{
	PyObject **mine[3] = { &h->errors, &h->drops, &h->msgs };
	PyObject *got[3] = { errors, drops, msgs };

	for (int i = 0; i < 3; i++) {
		if (PyList_GET_SIZE(got[i]) == 0)
			continue;
		if (*mine[i] == NULL) {
			*mine[i] = Py_NewRef(got[i]);
		} else {
			Py_ssize_t n = PyList_GET_SIZE(*mine[i]);

			if (PyList_SetSlice(*mine[i], n, n, got[i]) != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * Every entry of the sink: the firings' rows into rows (if not NULL), the
 * faults and drops kept for take_events().  The sink is emptied only when
 * all was made, so that a failure (no memory) loses nothing.
 */
static int take_entries(HandleObject *h, PyObject *rows)
{
	bc_reader_t r = bc_sink_reader(&h->sink);
	PyObject *errors = PyList_New(0), *drops = PyList_New(0), *msgs = PyList_New(0);
	PyObject *o = NULL;
	bc_entry_t e;
	int rc = -1, got;

	if (errors == NULL || drops == NULL || msgs == NULL)
		goto out;
	while ((got = bc_read_entry(&r, &e)) == 1) {
		switch (e.kind) {
		case BC_PROBE:
			if (rows == NULL)
				continue;
			if ((o = firing_row(h, &e)) == NULL) {
				if (PyErr_Occurred())
					goto out;
				continue;
			}
			if (PyList_Append(rows, o) != 0)
				goto out;
			break;
		case BC_ERROR:
			if ((o = error_dict(&e)) == NULL ||
			    (e.action >= 0 && PyList_Append(errors, o) != 0))
				goto out;
			/* the library's own action errors were never error objects */
			Py_CLEAR(o);
			if ((o = str_or_none(e.msg)) == NULL || PyList_Append(msgs, o) != 0)
				goto out;
			break;
		case BC_DROP:
			if ((o = drop_dict(&e)) == NULL || PyList_Append(drops, o) != 0)
				goto out;
			Py_CLEAR(o);
			if ((o = str_or_none(e.msg)) == NULL || PyList_Append(msgs, o) != 0)
				goto out;
			break;
		default: continue;
		}
		Py_CLEAR(o);
	}
	if (got < 0) {
		PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue");
		goto out;
	}
	if (append_events(h, errors, drops, msgs) != 0)
		goto out;
	bc_sink_reset(&h->sink);
	rc = 0;
out:
	Py_XDECREF(o);
	Py_XDECREF(errors);
	Py_XDECREF(drops);
	Py_XDECREF(msgs);
	return rc;
}

/*
 * work() -> (status, records): status 0 more to come, 1 done, -1 an error
 * (the records read before it still come; error() then says what it
 * was); records as take_records() makes them.  When making them fails
 * (no memory), they stay queued for the next call.
 */
static PyObject *Handle_work(HandleObject *self, PyObject *unused)
{
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
	rc = (int)bc_consume(&self->sink);
	PyEval_RestoreThread(ts);
	self->busy = false;
	failed = bc_sink_failed(&self->sink);
	if ((recs = PyList_New(0)) == NULL)
		return NULL;
	if (take_entries(self, recs) != 0) {
		Py_DECREF(recs);
		return NULL;
	}
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

/* One bucket bound: None for an open end of lquantize() and llquantize(). */
static PyObject *bound(int64_t v, bool open, int64_t end)
{
	if (open && v == end)
		Py_RETURN_NONE;
	return PyLong_FromLongLong((long long)v);
}

/* The value of one entry: an int, or a list of (min, max, count) of its non-empty buckets. */
static PyObject *r_aggvalue(bc_entry_t *e)
{
	bool open = e->aggkind == DTRACE_AGG_LQUANTIZE || e->aggkind == DTRACE_AGG_LLQUANTIZE;
	dtrace_aggbucket_t bk;
	PyObject *l;
	Py_ssize_t i = 0;

	if (e->aggkind != DTRACE_AGG_QUANTIZE && !open)
		return PyLong_FromLongLong((long long)e->value);
	if ((l = PyList_New((Py_ssize_t)e->nbuckets)) == NULL)
		return NULL;
	while (i < (Py_ssize_t)e->nbuckets && bc_read_bucket(&e->buckets, &bk) == 1) {
		PyObject *b =
		    Py_BuildValue("(NNL)", bound(bk.dtab_lo, open, INT64_MIN),
				  bound(bk.dtab_hi, open, INT64_MAX), (long long)bk.dtab_count);

		if (b == NULL) {
			Py_DECREF(l);
			return NULL;
		}
		PyList_SET_ITEM(l, i++, b);
	}
	if (i != (Py_ssize_t)e->nbuckets) {
		Py_DECREF(l);
		PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue entry");
		return NULL;
	}
	return l;
}

/* [(name, keys tuple, value)] of the entries in s, in their order. */
static PyObject *take_aggs(const bc_sink_t *s)
{
	bc_reader_t r = bc_sink_reader(s);
	PyObject *out = PyList_New(0);
	bc_entry_t e;
	int got;

	while (out != NULL && (got = bc_read_entry(&r, &e)) == 1) {
		PyObject *name, *keys = NULL, *v = NULL, *row = NULL;
		bc_value_t k;
		Py_ssize_t i = 0;

		if (e.kind != BC_AGG)
			continue;
		if ((name = str_or_none(e.aggname)) == NULL ||
		    (keys = PyTuple_New((Py_ssize_t)e.nkeys)) == NULL)
			goto fail_entry;
		while (i < (Py_ssize_t)e.nkeys && bc_read_value(&e.keys, &k) == 1) {
			PyObject *key = r_datum(&k);

			if (key == NULL)
				goto fail_entry;
			PyTuple_SET_ITEM(keys, i++, key);
		}
		if (i != (Py_ssize_t)e.nkeys) {
			PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue entry");
			goto fail_entry;
		}
		if ((v = r_aggvalue(&e)) == NULL ||
		    (row = PyTuple_Pack(3, name, keys, v)) == NULL || PyList_Append(out, row) != 0)
			goto fail_entry;
		Py_DECREF(row);
		Py_DECREF(name);
		Py_DECREF(keys);
		Py_DECREF(v);
		continue;
	fail_entry:
		Py_XDECREF(row);
		Py_XDECREF(name);
		Py_XDECREF(keys);
		Py_XDECREF(v);
		Py_CLEAR(out);
	}
	if (out != NULL && got < 0) {
		PyErr_SetString(PyExc_SystemError, "dtrace._consumer: a bad queue");
		Py_CLEAR(out);
	}
	return out;
}

/* aggregate() -> [(name, keys, value)]: every aggregation's current entries. */
static PyObject *Handle_aggregate(HandleObject *self, PyObject *unused)
{
	bc_sink_t s;
	PyThreadState *ts;
	PyObject *out;
	int rc;

	(void)unused;
	if (enter(self) != 0)
		return NULL;
	bc_sink_init(&s, self->dtp, 0);
	self->busy = true;
	ts = PyEval_SaveThread();
	rc = bc_aggregate(&s, NULL);
	PyEval_RestoreThread(ts);
	self->busy = false;
	if (rc != 0) {
		bc_sink_fini(&s);
		return dt_error(self, "aggregations");
	}
	out = bc_sink_failed(&s) ? PyErr_NoMemory() : take_aggs(&s);
	bc_sink_fini(&s);
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
	PyObject *errors, *drops, *msgs;

	(void)unused;
	if (self->busy) { /* the handlers may be writing to the queue */
		PyErr_SetString(PyExc_RuntimeError,
				"the dtrace handle is in use by another thread");
		return NULL;
	}
	/* what the handlers queued since work() (while walking aggregations, stopping) */
	if (self->dtp != NULL && take_entries(self, NULL) != 0)
		return NULL;
	errors = self->errors;
	drops = self->drops;
	msgs = self->msgs;
	self->errors = self->drops = self->msgs = NULL; /* their references go to the tuple */
	return Py_BuildValue("(NNN)", errors != NULL ? errors : PyList_New(0),
			     drops != NULL ? drops : PyList_New(0),
			     msgs != NULL ? msgs : PyList_New(0));
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
