/*
 * consumermodule.c -- dtrace._consumer: a libdtrace handle for Python.
 *
 * The low layer of dtrace.Consumer (dtrace/consumer.py).  The handle runs
 * with oformat=json: dtrace_work() and dtrace_aggregate_write() write JSON
 * Lines (docs/json.md, libdtrace's stable structured output) into a memory
 * stream, and work()/aggregate() return those bytes for the Python layer to
 * turn into records and dicts.  The GIL is released while libdtrace waits or
 * reads buffers; a handle is used by one thread at a time (a second caller
 * gets RuntimeError, not a race).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <dtrace.h>

typedef struct {
	PyObject_HEAD dtrace_hdl_t *dtp; /* NULL once closed */
	dtrace_prog_t *prog;		 /* the last compiled program, not yet executed */
	bool busy;			 /* a call runs without the GIL */
	char *msgs;			 /* drop/error messages since the last take */
	size_t nmsgs;
	FILE *msgf;
} HandleObject;

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

/* Messages (drops, errors) go to a memory stream, taken by take_messages(). */
static void on_msg(const char *msg, void *arg)
{
	HandleObject *h = arg;

	if (h->msgf == NULL && (h->msgf = open_memstream(&h->msgs, &h->nmsgs)) == NULL)
		return;
	fputs(msg, h->msgf);
	fputc('\n', h->msgf);
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
	if (dtrace_setopt(self->dtp, "oformat", "json") != 0 ||
	    dtrace_handle_err(self->dtp, on_msg, self) != 0 ||
	    dtrace_handle_drop(self->dtp, on_msg, self) != 0) {
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
	if (self->msgf != NULL)
		fclose(self->msgf);
	self->msgf = NULL;
	free(self->msgs);
	self->msgs = NULL;
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
	PyThreadState *ts;

	if (!PyArg_ParseTuple(args, "p:go", &cont) || enter(self) != 0)
		return NULL;
	if (!dtrace_oformat(self->dtp)) /* a program's #pragma D option oformat=text */
		return PyErr_Format(PyExc_ValueError,
				    "go: oformat=text was set; a Consumer reads oformat=json");
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

/* The bytes written to a memory stream by f(dtp, fp), run without the GIL. */
static PyObject *capture(HandleObject *self, int (*f)(dtrace_hdl_t *, FILE *), int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	PyObject *out;
	PyThreadState *ts;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		return PyErr_SetFromErrno(PyExc_OSError);
	self->busy = true;
	ts = PyEval_SaveThread();
	*rc = f(self->dtp, fp);
	PyEval_RestoreThread(ts);
	self->busy = false;
	if (fclose(fp) != 0) {
		free(buf);
		return PyErr_SetFromErrno(PyExc_OSError);
	}
	out = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
	free(buf);
	return out;
}

static int work(dtrace_hdl_t *dtp, FILE *fp)
{
	return (int)dtrace_work(dtp, fp);
}

/*
 * work() -> (status, bytes): status 0 more to come, 1 done, -1 an error
 * (the bytes read before it still come; error() then says what it was).
 */
static PyObject *Handle_work(HandleObject *self, PyObject *unused)
{
	PyObject *out;
	int rc = 0;

	(void)unused;
	if (enter(self) != 0 || (out = capture(self, work, &rc)) == NULL)
		return NULL;
	return Py_BuildValue("(iN)", rc, out);
}

/* error(what): raise DTraceError("what: <the handle's last error>"). */
static PyObject *Handle_error(HandleObject *self, PyObject *args)
{
	const char *what;

	if (!PyArg_ParseTuple(args, "s:error", &what) || enter(self) != 0)
		return NULL;
	return dt_error(self, what);
}

/* aggregate() -> bytes: every aggregation's current entries, as JSON Lines. */
static PyObject *Handle_aggregate(HandleObject *self, PyObject *unused)
{
	PyObject *out;
	int rc = 0;

	(void)unused;
	if (enter(self) != 0 || (out = capture(self, dtrace_aggregate_write, &rc)) == NULL)
		return NULL;
	if (rc != 0) {
		Py_DECREF(out);
		return dt_error(self, "aggregations");
	}
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

/* take_messages() -> list of the drop and error messages since the last call. */
static PyObject *Handle_take_messages(HandleObject *self, PyObject *unused)
{
	PyObject *text, *lines;

	(void)unused;
	if (self->busy) { /* on_msg may be writing to msgf */
		PyErr_SetString(PyExc_RuntimeError,
				"the dtrace handle is in use by another thread");
		return NULL;
	}
	if (self->msgf == NULL)
		return PyList_New(0);
	fclose(self->msgf);
	self->msgf = NULL;
	text = PyUnicode_DecodeUTF8(self->msgs, (Py_ssize_t)self->nmsgs, "replace");
	free(self->msgs);
	self->msgs = NULL;
	self->nmsgs = 0;
	if (text == NULL)
		return NULL;
	lines = PyUnicode_Splitlines(text, 0);
	Py_DECREF(text);
	return lines;
}

static PyMethodDef Handle_methods[] = {
	{ "close", (PyCFunction)Handle_close, METH_NOARGS, "Detach everything; idempotent." },
	{ "setopt", (PyCFunction)Handle_setopt, METH_VARARGS, "setopt(name, value=None)" },
	{ "compile", (PyCFunction)Handle_compile, METH_VARARGS, "compile(source, args, flags=0)" },
	{ "exec", (PyCFunction)Handle_exec, METH_NOARGS, "exec() -> (descriptions, matches)" },
	{ "spawn", (PyCFunction)Handle_spawn, METH_O, "spawn(argv) -> pid, stopped at entry" },
	{ "grab", (PyCFunction)Handle_grab, METH_VARARGS, "grab(pid)" },
	{ "go", (PyCFunction)Handle_go, METH_VARARGS, "go(continue_target)" },
	{ "work", (PyCFunction)Handle_work, METH_NOARGS, "work() -> (status, bytes)" },
	{ "error", (PyCFunction)Handle_error, METH_VARARGS, "error(what): raise the last error" },
	{ "aggregate", (PyCFunction)Handle_aggregate, METH_NOARGS, "aggregate() -> bytes" },
	{ "sleep", (PyCFunction)Handle_sleep, METH_NOARGS, "sleep(): wait without the GIL" },
	{ "stop", (PyCFunction)Handle_stop, METH_NOARGS, "stop(): fire END" },
	{ "target_exited", (PyCFunction)Handle_target_exited, METH_NOARGS, "None or wait status" },
	{ "status", (PyCFunction)Handle_status, METH_NOARGS, "(status, exit value)" },
	{ "target", (PyCFunction)Handle_target, METH_NOARGS, "the target's pid, or 0" },
	{ "take_messages", (PyCFunction)Handle_take_messages, METH_NOARGS, "messages since" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject HandleType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dtrace._consumer.Handle",
	.tp_basicsize = sizeof(HandleObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A libdtrace handle in JSON output mode (see dtrace.Consumer).",
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
