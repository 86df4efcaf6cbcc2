/*
 * pyrt.c -- the Python runtime's own provider: function-entry and
 * function-return (function name, file, line) for every Python function.
 *
 * Nothing is hooked while no tracer has either probe enabled: libusdt's watcher
 * thread (set up by the bindings' shared runtime core, bc_usdt.h) looks at the
 * two semaphores every interval, takes the GIL only when
 * the answer changes (or, while traced, to reach threads started since), and
 * sets or clears a C-level profile function (no Python frames, no
 * sys.setprofile object) on each thread of the interpreter.  Threads that run
 * another profiler (cProfile, a sys.setprofile callable) are left alone.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <string.h>

#include <usdt.h>

#include "bc_usdt.h"
#include "pyusdt.h"

static struct {
	bc_rt_t rt; /* the provider, function-entry and function-return, the watcher */
	bool running;
	atomic_bool installed; /* our profile function is set (read without the GIL) */
} rt;

static int profile(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
	usdt_probe_t *p;
	PyCodeObject *co;
	const char *name, *file;

	(void)obj;
	(void)arg;
	if (what == PyTrace_CALL)
		p = rt.rt.probes[BC_RT_ENTRY];
	else if (what == PyTrace_RETURN)
		p = rt.rt.probes[BC_RT_RETURN];
	else
		return 0;
	if (p == NULL || !usdt_probe_is_enabled(p))
		return 0;
	co = PyFrame_GetCode(frame);
	name = PyUnicode_AsUTF8(co->co_name);
	file = PyUnicode_AsUTF8(co->co_filename);
	if (name == NULL || file == NULL) /* a name that is not UTF-8: still fire */
		PyErr_Clear();
	usdt_probe_fire3(p, (uint64_t)(uintptr_t)(name != NULL ? name : "?"),
			 (uint64_t)(uintptr_t)(file != NULL ? file : "?"),
			 (uint64_t)(int64_t)PyFrame_GetLineNumber(frame));
	Py_DECREF(co);
	return 0;
}

/* With the GIL: our profile function on every thread (want) or on none. */
static void sync_threads(bool want)
{
	PyInterpreterState *is = PyThreadState_GetInterpreter(PyThreadState_Get());

	for (PyThreadState *ts = PyInterpreterState_ThreadHead(is); ts != NULL;
	     ts = PyThreadState_Next(ts)) {
		if (want && ts->c_profilefunc == NULL) {
			if (_PyEval_SetProfile(ts, profile, NULL) < 0)
				PyErr_Clear();
		} else if (!want && ts->c_profilefunc == profile) {
			if (_PyEval_SetProfile(ts, NULL, NULL) < 0)
				PyErr_Clear();
		}
	}
	atomic_store(&rt.installed, want);
}

/* On libusdt's watcher thread, at each look while traced and once after. */
static void on_watch(bool on, void *unused)
{
	PyGILState_STATE g;

	(void)unused;
	g = PyGILState_Ensure();
	sync_threads(on); /* while traced, also reaches threads started since */
	PyGILState_Release(g);
}

static PyObject *rt_start(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { (char *)"provider", (char *)"module", (char *)"interval", NULL };
	const char *name = "python_rt", *module = NULL;
	double interval = 0.05;
	char err[256];
	long ns;
	int rc;

	(void)self;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|szd:start", kwlist, &name, &module, &interval))
		return NULL;
	if (bc_interval_ns(interval, 1e9, &ns) != 0) {
		PyErr_SetString(PyExc_ValueError, "start(): interval must be 0.001 to 60 seconds");
		return NULL;
	}
	if (rt.running) {
		PyErr_SetString(PyExc_RuntimeError,
				"start(): the runtime provider is already started");
		return NULL;
	}
	if (bc_rt_open(&rt.rt, name, module, err, sizeof(err)) != 0)
		return pyusdt_raise("start()", err);
	if ((rc = bc_rt_watch(&rt.rt, ns, on_watch, NULL, err, sizeof(err))) != 0) {
		bc_rt_close(&rt.rt);
		memset(rt.rt.probes, 0, sizeof(rt.rt.probes));
		errno = -rc;
		return PyErr_SetFromErrno(PyExc_OSError);
	}
	rt.running = true;
	/*
	 * A tracer that waits for new providers (dtrace -Z) has attached by
	 * now: usdt_provider_enable() waited for it.  Hook the threads at once
	 * (we hold the GIL), not at the watcher's first look, which needs the
	 * GIL too and would miss the calls made until the interpreter lets go.
	 */
	if (bc_rt_traced(&rt.rt))
		sync_threads(true);
	Py_RETURN_NONE;
}

static PyObject *rt_stop(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	if (!rt.running)
		Py_RETURN_NONE;
	rt.running = false; /* with the GIL: a second stop() returns at once */
	{
		PyThreadState *ts = PyEval_SaveThread(); /* the watcher may wait for the GIL */

		bc_rt_unwatch(&rt.rt); /* in a forked child: no thread to join */
		PyEval_RestoreThread(ts);
	}
	sync_threads(false);
	/* the probes stay valid (libusdt keeps them for the process): a profile
	   call already past its check on another thread fires into nothing */
	bc_rt_close(&rt.rt);
	memset(rt.rt.probes, 0, sizeof(rt.rt.probes));
	Py_RETURN_NONE;
}

static PyObject *rt_active(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyBool_FromLong(atomic_load(&rt.installed));
}

static PyObject *rt_running(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyBool_FromLong(rt.running);
}

/* The names of the runtime probes a tracer has enabled now. */
static PyObject *rt_enabled(PyObject *self, PyObject *unused)
{
	PyObject *l = PyList_New(0);

	(void)self;
	(void)unused;
	for (int i = 0; l != NULL && i < BC_RT_NPROBES; i++) {
		usdt_probe_t *p = rt.rt.probes[i];
		PyObject *s;

		if (p == NULL || usdt_probe_is_enabled(p) <= 0)
			continue;
		if ((s = PyUnicode_FromString(bc_rt_names[i])) == NULL || PyList_Append(l, s) != 0)
			Py_CLEAR(l);
		Py_XDECREF(s);
	}
	return l;
}

static PyObject *rt_hooked(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyBool_FromLong(PyThreadState_Get()->c_profilefunc == profile);
}

static PyMethodDef rt_methods[] = {
	{ "runtime_start", (PyCFunction)(void (*)(void))rt_start, METH_VARARGS | METH_KEYWORDS,
	  "runtime_start(provider='python_rt', module=None, interval=0.05)" },
	{ "runtime_stop", rt_stop, METH_NOARGS, "Stop watching and remove the hooks." },
	{ "runtime_active", rt_active, METH_NOARGS, "True while the profile hook is installed." },
	{ "runtime_enabled", rt_enabled, METH_NOARGS,
	  "The names of the probes a tracer has enabled." },
	{ "runtime_hooked", rt_hooked, METH_NOARGS, "True if this thread has the hook." },
	{ "runtime_running", rt_running, METH_NOARGS, "True between start and stop." },
	{ NULL, NULL, 0, NULL },
};

int pyrt_add(PyObject *m)
{
	return PyModule_AddFunctions(m, rt_methods);
}
