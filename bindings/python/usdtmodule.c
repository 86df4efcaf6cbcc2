/*
 * usdtmodule.c -- dtrace._usdt: libusdt providers for Python (C API).
 *
 *   p = Provider("myapp", module=None)
 *   q = p.probe("query-start", str, int, function="query")   # a Probe
 *   p.enable()
 *   if q.enabled: ...                 # one load of the semaphore
 *   q.fire("select 1", 3)             # nothing converted while disabled
 *   q.fire_lazy(lambda: ("select 1", 3))   # called only when enabled
 *
 * Argument types: int (int64), str, float (double), "json" (any object,
 * serialised with json.dumps when fired), or a libusdt type name
 * ("int8".."uint64", "pointer", "string", "double").  The pure-Python
 * package (dtrace/__init__.py) adds decorators and context managers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include <usdt.h>

#include "bc_usdt.h"
#include "pyusdt.h"

typedef struct {
	PyObject_HEAD usdt_provider_t *prov; /* NULL once destroyed */
	PyObject *name;
	PyObject *probes; /* list of Probe: kept alive with the provider */
	int enabled;
} ProviderObject;

typedef struct {
	PyObject_HEAD usdt_probe_t *probe; /* owned by libusdt; valid for the life of the process */
	PyObject *provider;		   /* the Provider */
	PyObject *name;			   /* "query-start" */
	int argc;
	unsigned char kinds[USDT_MAXARGS]; /* bc_kind_t */
} ProbeObject;

static PyTypeObject ProviderType, ProbeType;
static PyObject *UsdtError; /* dtrace.UsdtError */
static PyObject *json_dumps;

PyObject *pyusdt_error(int code, const usdt_provider_t *prov, const char *what)
{
	char msg[512];

	PyErr_SetString(UsdtError, bc_msg_usdt(msg, sizeof(msg), what, prov, code));
	return NULL;
}

PyObject *pyusdt_raise(const char *what, const char *msg)
{
	PyErr_Format(UsdtError, "%s: %s", what, msg);
	return NULL;
}

/* ---------------------------------------------------------------- types */

/*
 * One argument type: a Python type (int, str, float, dict, list) or a name
 * of the bindings' table (bc_argtype).
 */
static int parse_type(PyObject *t, const char *probe, Py_ssize_t i, const bc_argtype_t **type)
{
	const char *name = NULL;
	char msg[512];
	PyObject *r;

	if (t == (PyObject *)&PyLong_Type)
		name = "int";
	else if (t == (PyObject *)&PyUnicode_Type)
		name = "string";
	else if (t == (PyObject *)&PyFloat_Type)
		name = "float";
	else if (t == (PyObject *)&PyDict_Type || t == (PyObject *)&PyList_Type)
		name = "json";
	else if (PyUnicode_Check(t) && (name = PyUnicode_AsUTF8(t)) == NULL)
		return -1;
	if ((*type = bc_argtype(name)) != NULL)
		return 0;
	if ((r = PyObject_Repr(t)) == NULL)
		return -1;
	name = PyUnicode_AsUTF8(r);
	if (name == NULL) {
		Py_DECREF(r);
		return -1;
	}
	/* the names, then Python's types */
	bc_msg_badtype(msg, sizeof(msg), probe, (int)i + 1, name);
	Py_DECREF(r);
	PyErr_Format(PyExc_TypeError, "%s (or the types int, str, float, dict, list)", msg);
	return -1;
}

/* ---------------------------------------------------------------- Probe */

/*
 * A Probe and its Provider refer to each other: both take part in the GC,
 * and the Provider's tp_clear (dropping its list) breaks the cycle, so a
 * Probe keeps its provider for as long as it lives.
 */
static int Probe_traverse(ProbeObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->provider);
	return 0;
}

static void Probe_dealloc(ProbeObject *self)
{
	PyObject_GC_UnTrack(self);
	Py_XDECREF(self->provider);
	Py_XDECREF(self->name);
	PyObject_GC_Del(self);
}

static PyObject *Probe_repr(ProbeObject *self)
{
	ProviderObject *p = (ProviderObject *)self->provider;

	return PyUnicode_FromFormat("<dtrace.Probe %U:::%U>", p->name, self->name);
}

static PyObject *Probe_get_enabled(ProbeObject *self, void *closure)
{
	(void)closure;
	return PyBool_FromLong(usdt_probe_is_enabled(self->probe) > 0);
}

/* Convert the n values and fire; the probe is enabled. */
static PyObject *fire_args(ProbeObject *self, PyObject *const *args, Py_ssize_t n)
{
	usdt_arg_t v[USDT_MAXARGS] = { { 0 } };
	PyObject *keep[USDT_MAXARGS]; /* json strings, alive until the fire */
	int nkeep = 0, rc;

	if (n != self->argc) {
		ProviderObject *p = (ProviderObject *)self->provider;
		char label[256], msg[320];

		bc_msg_label(label, sizeof(label), PyUnicode_AsUTF8(p->name),
			     PyUnicode_AsUTF8(self->name));
		PyErr_Clear(); /* a name that is not UTF-8: "?" */
		PyErr_SetString(PyExc_TypeError,
				bc_msg_count(msg, sizeof(msg), label, self->argc, (long)n));
		return NULL;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *a = args[i], *s;

		switch ((bc_kind_t)self->kinds[i]) {
		case BC_INT: v[i].i = PyLong_AsLongLong(a); break;
		case BC_UINT:
		case BC_PTR: v[i].u = PyLong_AsUnsignedLongLong(a); break;
		case BC_FLOAT: v[i].d = PyFloat_AsDouble(a); break;
		case BC_STR:
			v[i].s = a == Py_None ? NULL : PyUnicode_AsUTF8(a);
			if (a != Py_None && v[i].s == NULL && !PyErr_Occurred())
				PyErr_SetString(PyExc_TypeError, "expected str");
			break;
		case BC_JSON:
			if ((s = PyObject_CallOneArg(json_dumps, a)) == NULL)
				break;
			keep[nkeep++] = s;
			v[i].s = PyUnicode_AsUTF8(s);
			break;
		}
		if (PyErr_Occurred()) {
			ProviderObject *p = (ProviderObject *)self->provider;

			_PyErr_FormatFromCause(PyExc_TypeError, "argument %zd of %U:::%U", i + 1,
					       p->name, self->name);
			while (nkeep > 0)
				Py_DECREF(keep[--nkeep]);
			return NULL;
		}
	}
	rc = usdt_probe_fire(self->probe, (int)n, v);
	while (nkeep > 0)
		Py_DECREF(keep[--nkeep]);
	if (rc != 0 && rc != -EUSDT_DESTROYED)
		return pyusdt_error(-rc, NULL, "fire");
	Py_RETURN_NONE;
}

/*
 * fire(*args): nothing is looked at while no tracer has the probe enabled
 * (METH_FASTCALL: the interpreter builds no argument tuple either).
 */
static PyObject *Probe_fire(ProbeObject *self, PyObject *const *args, Py_ssize_t n)
{
	if (usdt_probe_is_enabled(self->probe) <= 0)
		Py_RETURN_NONE;
	return fire_args(self, args, n);
}

/* fire_lazy(f): f() is called only when enabled; it returns the arguments (a tuple, or one value). */
static PyObject *Probe_fire_lazy(ProbeObject *self, PyObject *f)
{
	PyObject *r, *out;

	if (!PyCallable_Check(f))
		return PyErr_Format(PyExc_TypeError, "fire_lazy() takes a callable, not %.100s",
				    Py_TYPE(f)->tp_name);
	if (usdt_probe_is_enabled(self->probe) <= 0)
		Py_RETURN_NONE;
	if ((r = PyObject_CallNoArgs(f)) == NULL)
		return NULL;
	if (PyTuple_Check(r))
		out = fire_args(self, &PyTuple_GET_ITEM(r, 0), PyTuple_GET_SIZE(r));
	else
		out = fire_args(self, &r, 1);
	Py_DECREF(r);
	return out;
}

static PyObject *Probe_get_name(ProbeObject *self, void *closure)
{
	(void)closure;
	return Py_NewRef(self->name);
}

static PyObject *Probe_get_provider(ProbeObject *self, void *closure)
{
	(void)closure;
	return Py_NewRef(self->provider);
}

static PyMethodDef Probe_methods[] = {
	{ "fire", (PyCFunction)(void (*)(void))Probe_fire, METH_FASTCALL,
	  "fire(*args): fire the probe with these values (nothing happens, and nothing is "
	  "converted, while no tracer has it enabled)" },
	{ "fire_lazy", (PyCFunction)Probe_fire_lazy, METH_O,
	  "fire_lazy(f): if enabled, fire with f()'s values (a tuple, or one value)" },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Probe_getset[] = {
	{ "enabled", (getter)Probe_get_enabled, NULL,
	  "True while a tracer has the probe enabled (one load)", NULL },
	{ "name", (getter)Probe_get_name, NULL, "the probe's name, as tracers show it", NULL },
	{ "provider", (getter)Probe_get_provider, NULL, "the Provider", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject ProbeType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dtrace.Probe",
	.tp_basicsize = sizeof(ProbeObject),
	.tp_dealloc = (destructor)Probe_dealloc,
	.tp_repr = (reprfunc)Probe_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.tp_traverse = (traverseproc)Probe_traverse,
	.tp_doc = "A probe of a Provider (made by Provider.probe)",
	.tp_methods = Probe_methods,
	.tp_getset = Probe_getset,
};

/* ---------------------------------------------------------------- Provider */

static int Provider_init(ProviderObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { (char *)"name", (char *)"module", NULL };
	const char *name, *module = NULL;
	int err = 0;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|z:Provider", kwlist, &name, &module))
		return -1;
	if (self->prov != NULL || self->name != NULL) {
		PyErr_SetString(UsdtError, "Provider.__init__ called twice");
		return -1;
	}
	if ((self->prov = usdt_provider_create(name, module, NULL, &err)) == NULL) {
		pyusdt_error(-err, NULL, "Provider");
		return -1;
	}
	self->name = PyUnicode_FromString(name);
	self->probes = PyList_New(0);
	return self->name != NULL && self->probes != NULL ? 0 : -1;
}

static int Provider_traverse(ProviderObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->probes); /* a heap subclass's traverse visits its type */
	return 0;
}

static int Provider_clear(ProviderObject *self)
{
	Py_CLEAR(self->probes);
	return 0;
}

static void Provider_dealloc(ProviderObject *self)
{
	PyObject_GC_UnTrack(self);
	usdt_provider_destroy(self->prov); /* a dropped provider goes away with its image */
	self->prov = NULL;
	Provider_clear(self);
	Py_XDECREF(self->name);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int live(ProviderObject *self)
{
	if (self->prov != NULL && self->probes != NULL)
		return 1;
	PyErr_SetString(UsdtError, "the provider was destroyed");
	return 0;
}

/* probe(name, *types, function=None): "query-start" is query__start in the notes. */
static PyObject *Provider_probe(ProviderObject *self, PyObject *args, PyObject *kw)
{
	usdt_argtype_t types[USDT_MAXARGS];
	Py_ssize_t n = PyTuple_GET_SIZE(args);
	PyObject *name, *function = NULL;
	ProbeObject *pr;
	const char *fn = NULL, *s;
	char msg[256];

	if (!live(self))
		return NULL;
	if (n < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(args, 0)))
		return PyErr_Format(PyExc_TypeError, "probe() needs a name (str) first");
	name = PyTuple_GET_ITEM(args, 0);
	/* libusdt writes "-" as "__" in the note */
	if ((s = PyUnicode_AsUTF8(name)) == NULL)
		return NULL;
	if (n - 1 > USDT_MAXARGS) {
		PyErr_SetString(PyExc_TypeError, bc_msg_toomany(msg, sizeof(msg), s));
		return NULL;
	}
	if (kw != NULL) {
		Py_ssize_t pos = 0;
		PyObject *k, *v;

		while (PyDict_Next(kw, &pos, &k, &v)) {
			if (!PyUnicode_Check(k) ||
			    PyUnicode_CompareWithASCIIString(k, "function") != 0)
				return PyErr_Format(PyExc_TypeError,
						    "probe() got an unexpected keyword %R", k);
			function = v;
		}
	}
	if (function != NULL && function != Py_None && (fn = PyUnicode_AsUTF8(function)) == NULL)
		return NULL;
	if ((pr = PyObject_GC_New(ProbeObject, &ProbeType)) == NULL)
		return NULL;
	pr->provider = Py_NewRef(self);
	pr->name = Py_NewRef(name);
	pr->probe = NULL;
	pr->argc = (int)(n - 1);
	for (Py_ssize_t i = 1; i < n; i++) {
		const bc_argtype_t *t;

		if (parse_type(PyTuple_GET_ITEM(args, i), s, i - 1, &t) != 0) {
			Py_DECREF(pr);
			return NULL;
		}
		types[i - 1] = t->type;
		pr->kinds[i - 1] = t->kind;
	}
	pr->probe = usdt_probe_create(self->prov, fn, s, pr->argc, types);
	if (pr->probe == NULL) {
		pyusdt_error(usdt_provider_errno(self->prov), self->prov, "probe");
		Py_DECREF(pr);
		return NULL;
	}
	PyObject_GC_Track(pr);
	if (PyList_Append(self->probes, (PyObject *)pr) != 0) {
		Py_DECREF(pr);
		return NULL;
	}
	return (PyObject *)pr;
}

static PyObject *Provider_enable(ProviderObject *self, PyObject *unused)
{
	int rc;

	(void)unused;
	if (!live(self))
		return NULL;
	if ((rc = usdt_provider_enable(self->prov)) != 0)
		return pyusdt_error(-rc, self->prov, "enable");
	self->enabled = 1;
	Py_RETURN_NONE;
}

static PyObject *Provider_disable(ProviderObject *self, PyObject *unused)
{
	int rc;

	(void)unused;
	if (!live(self))
		return NULL;
	if ((rc = usdt_provider_disable(self->prov)) != 0)
		return pyusdt_error(-rc, self->prov, "disable");
	self->enabled = 0;
	Py_RETURN_NONE;
}

static PyObject *Provider_destroy(ProviderObject *self, PyObject *unused)
{
	(void)unused;
	usdt_provider_destroy(self->prov);
	self->prov = NULL;
	self->enabled = 0;
	Py_RETURN_NONE;
}

static PyObject *Provider_enter(ProviderObject *self, PyObject *unused)
{
	(void)unused;
	if (!live(self))
		return NULL;
	if (!self->enabled) {
		PyObject *r = Provider_enable(self, NULL);

		if (r == NULL)
			return NULL;
		Py_DECREF(r);
	}
	return Py_NewRef(self);
}

static PyObject *Provider_exit(ProviderObject *self, PyObject *args)
{
	(void)args;
	return Provider_destroy(self, NULL);
}

static PyObject *Provider_get_path(ProviderObject *self, void *closure)
{
	const char *p;

	(void)closure;
	if (self->prov == NULL || (p = usdt_provider_path(self->prov)) == NULL)
		Py_RETURN_NONE;
	return PyUnicode_DecodeFSDefault(p);
}

static PyObject *Provider_get_name(ProviderObject *self, void *closure)
{
	(void)closure;
	if (self->name == NULL)
		Py_RETURN_NONE;
	return Py_NewRef(self->name);
}

static PyObject *Provider_get_probes(ProviderObject *self, void *closure)
{
	(void)closure;
	if (self->probes == NULL)
		return PyTuple_New(0);
	return PyList_AsTuple(self->probes);
}

static PyObject *Provider_get_enabled(ProviderObject *self, void *closure)
{
	(void)closure;
	return PyBool_FromLong(self->prov != NULL && self->enabled);
}

static PyObject *Provider_repr(ProviderObject *self)
{
	if (self->name == NULL || self->probes == NULL)
		return PyUnicode_FromString("<dtrace.Provider, not initialised>");
	return PyUnicode_FromFormat("<dtrace.Provider %U, %zd probes, %s>", self->name,
				    PyList_GET_SIZE(self->probes),
				    self->prov == NULL ? "destroyed"
				    : self->enabled    ? "enabled"
						       : "not enabled");
}

static PyMethodDef Provider_methods[] = {
	{ "probe", (PyCFunction)(void (*)(void))Provider_probe, METH_VARARGS | METH_KEYWORDS,
	  "probe(name, *types, function=None) -> Probe: add a probe; types are int, str, "
	  "float, dict/list or 'json', or 'int8'..'uint64', 'pointer', 'string', 'double'" },
	{ "enable", (PyCFunction)Provider_enable, METH_NOARGS,
	  "enable(): make the probes visible to tracers" },
	{ "disable", (PyCFunction)Provider_disable, METH_NOARGS,
	  "disable(): hide the probes (they fire into nothing)" },
	{ "destroy", (PyCFunction)Provider_destroy, METH_NOARGS,
	  "destroy(): disable and free; its probes then do nothing" },
	{ "__enter__", (PyCFunction)Provider_enter, METH_NOARGS, "enable (if not yet)" },
	{ "__exit__", (PyCFunction)Provider_exit, METH_VARARGS, "destroy" },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef Provider_getset[] = {
	{ "path", (getter)Provider_get_path, NULL, "the image file tracers open, or None", NULL },
	{ "name", (getter)Provider_get_name, NULL, "the provider's name", NULL },
	{ "probes", (getter)Provider_get_probes, NULL, "the probes, in order of creation", NULL },
	{ "enabled", (getter)Provider_get_enabled, NULL, "True between enable() and disable()",
	  NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject ProviderType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dtrace.Provider",
	.tp_basicsize = sizeof(ProviderObject),
	.tp_dealloc = (destructor)Provider_dealloc,
	.tp_repr = (reprfunc)Provider_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
	.tp_traverse = (traverseproc)Provider_traverse,
	.tp_clear = (inquiry)Provider_clear,
	.tp_doc = "Provider(name, module=None): a USDT provider declared at run time",
	.tp_methods = Provider_methods,
	.tp_getset = Provider_getset,
	.tp_init = (initproc)Provider_init,
	.tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------- module */

static struct PyModuleDef usdt_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "dtrace._usdt",
	.m_doc = "USDT providers declared at run time (libusdt)",
	.m_size = -1,
};

PyMODINIT_FUNC PyInit__usdt(void);
PyMODINIT_FUNC PyInit__usdt(void)
{
	PyObject *m, *json;

	if (PyType_Ready(&ProviderType) < 0 || PyType_Ready(&ProbeType) < 0)
		return NULL;
	if ((json = PyImport_ImportModule("json")) == NULL)
		return NULL;
	json_dumps = PyObject_GetAttrString(json, "dumps");
	Py_DECREF(json);
	if (json_dumps == NULL || (m = PyModule_Create(&usdt_module)) == NULL)
		return NULL;
	UsdtError = PyErr_NewExceptionWithDoc("dtrace.UsdtError",
					      "A libusdt call failed (the message says why)",
					      PyExc_RuntimeError, NULL);
	if (UsdtError == NULL || PyModule_AddObjectRef(m, "UsdtError", UsdtError) < 0 ||
	    PyModule_AddObjectRef(m, "Provider", (PyObject *)&ProviderType) < 0 ||
	    PyModule_AddObjectRef(m, "Probe", (PyObject *)&ProbeType) < 0 || pyrt_add(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
