/* pyusdt.h -- what the files of dtrace._usdt share. */
#ifndef PYUSDT_H
#define PYUSDT_H

#include <Python.h>

#include <usdt.h>

/* Set dtrace.UsdtError from a libusdt code (and the provider's message, if
   any), prefixed with what was being done; returns NULL. */
PyObject *pyusdt_error(int code, const usdt_provider_t *prov, const char *what);

/* Set dtrace.UsdtError to "what: msg"; returns NULL. */
PyObject *pyusdt_raise(const char *what, const char *msg);

/* Add the runtime provider's functions (pyrt.c) to the module. */
int pyrt_add(PyObject *m);

#endif /* PYUSDT_H */
