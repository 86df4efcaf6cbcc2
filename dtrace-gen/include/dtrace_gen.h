/*
 * dtrace_gen.h -- build-time static probes: the `dtrace -h` header and the
 * `dtrace -G` object for the providers declared in compiled D programs.
 * Part of libdtrace (link -ldtrace: pkg-config libdtrace, or CMake's
 * DTrace::dtrace); installed next to dtrace.h, which it includes.
 *
 * Same names and shapes as illumos libdtrace's dtrace_program_header() and
 * dtrace_program_link().  Errors are reported through the handle
 * (dtrace_errno, dtrace_errmsg); nothing here exits or aborts.
 * Not thread-safe on one handle, like the rest of the handle API.
 */
#ifndef DTRACE_GEN_H
#define DTRACE_GEN_H

#include <stdio.h>

#include "dtrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Write a C/C++ header for every provider declared by the programs compiled
 * on dtp so far.  fname is the header's file name (used for the include
 * guard; may be NULL).  The header is self-contained: it defines
 * PROVIDER_PROBE(args...) and PROVIDER_PROBE_ENABLED() for each probe (names
 * as systemtap's and Solaris's dtrace -h make them) and needs no other
 * header than <stdint.h> and <sys/types.h>.  Returns 0 or -1 (EDT_OBJIO,
 * EDT_NOMEM).
 */
DTRACE_API int dtrace_program_header(dtrace_hdl_t *dtp, FILE *out, const char *fname);

/* dtrace_program_link() flags: none defined yet; pass 0. */

/*
 * Write to `file` a relocatable ELF object defining the semaphores of the
 * providers of pgp (of every program compiled on dtp if pgp is NULL), for
 * build rules of the form
 *   dtrace -G -s prov.d a.o b.o -o prov.o && cc a.o b.o prov.o
 * The objects in objv are read, not modified: each must be a readable ELF
 * file of this machine, and each probe site they hold for a provider of pgp
 * must name a declared probe with the declared number of arguments.
 * Returns 0 or -1 (EDT_ELF with the object's name and the problem,
 * EDT_OBJIO, EDT_NOMEM, EDT_BADARG).
 */
DTRACE_API int dtrace_program_link(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, unsigned dflags,
				   const char *file, int objc, char *const objv[]);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_GEN_H */
