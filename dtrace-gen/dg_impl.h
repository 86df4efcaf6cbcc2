/*
 * dg_impl.h -- dtrace-gen internals.  dtrace-gen reads the providers that
 * libdtrace's front-end parsed, so it sees libdtrace's internal header.
 */
#ifndef DG_IMPL_H
#define DG_IMPL_H

#include "dt_impl.h"
#include "dtrace_gen.h"

/* The text of dtrace/sdt_site.h, embedded at build time. */
extern const char dg_sdt_site_h[];

#endif /* DG_IMPL_H */
