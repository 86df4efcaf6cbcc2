/*
 * dt_unwind.h -- the unwind tables the user stack walker
 * (bpf/dt_ustack.c) reads, built by the consumer: each ELF file's
 * .eh_frame turned into sorted 16-byte rows (bpf/dt_ustack.h's layout),
 * the rows of every file kept once in one array (dt_unw_rows), and per
 * process the row range of each executable mapping (dt_unw_procs).
 *
 * The last row of a file's range is always DT_UNW_END; zero rows are END
 * too.  pc is the file's link-time address (ELF text lies below 4 GB), so
 * the walker looks up pc - bias.
 */
#ifndef DT_UNWIND_H
#define DT_UNWIND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/dt_ustack.h"
#include "dt_pmap.h"

/* What a file's rows count, as it was built. */
typedef struct dt_unw_stats {
	uint32_t us_fdes_rows; /* rows libdw gave, before merging equal neighbours */
	uint32_t us_rows;      /* rows kept, END rows included */
	uint32_t us_ends;      /* of those, END */
	uint32_t us_rsp, us_rbp, us_plt, us_signal; /* rows libdw gave, by CFA rule */
	uint32_t us_other; /* rules the walker cannot follow (rdi-based...): END */
	uint64_t us_ns;	   /* time to build, CLOCK_MONOTONIC */
} dt_unw_stats_t;

/*
 * The rows of the executable sections of e, sorted by pc, equal neighbours
 * merged: a malloc'd *rows (free it) of *n rows, the last one END.  0, or
 * a negative errno: -ENOMEM, -ENOENT no .eh_frame, -E2BIG text above 4 GB.
 * stats may be NULL.
 */
int dt_unw_build(Elf *e, dt_unw_row_t **rows, uint32_t *n, dt_unw_stats_t *stats);

/* The row that holds the link-time address pc in rows[lo, hi), or NULL. */
const dt_unw_row_t *dt_unw_find(const dt_unw_row_t *rows, uint32_t lo, uint32_t hi, uint64_t pc);

/*
 * The files cache: every file's rows once in one array (what dt_unw_rows
 * will hold), a file known by (device, inode, build-id).  maxrows bounds
 * the array (the unwindsize option / 16).
 */
typedef struct dt_unw dt_unw_t;

dt_unw_t *dt_unw_create(uint32_t maxrows);
void dt_unw_destroy(dt_unw_t *);

/* The rows so far (borrowed: valid until the next call that adds a file). */
const dt_unw_row_t *dt_unw_table(const dt_unw_t *, uint32_t *n);

/* Files read and built (a file found in the cache is not read again). */
uint32_t dt_unw_nbuilt(const dt_unw_t *);

/*
 * The row range [*lo, *hi) of the file at path, identified by dev, ino and
 * build-id: built at its first call, found after.  A file without tables
 * (no .eh_frame, not ELF) is remembered with an empty range.  0, or a
 * negative errno: -ENOMEM, -ENOSPC the array is full (nothing added).
 * stats, if not NULL, are the file's as built.
 */
int dt_unw_file(dt_unw_t *, const char *path, uint64_t dev, uint64_t ino, const uint8_t *buildid,
		size_t buildidlen, uint32_t *lo, uint32_t *hi, dt_unw_stats_t *stats);

/*
 * The entry of a process from its mappings (dt_pmap_read): each
 * executable mapping with the row range of its file, built if new.
 * [vdso]'s rows come from its image in the process (/proc/PID/mem).
 * Anonymous and unreadable executable mappings (JIT code) have an empty
 * range; [vsyscall] (a kernel address) is left out, and so are
 * executable mappings past DT_UNW_MAXMAPS, counted in *dropped (may be
 * NULL).  0, or a negative errno (dt_unw_file's; a file that does not fit
 * is -ENOSPC).
 */
int dt_unw_proc(dt_unw_t *, const dt_pmap_t *, dt_unw_proc_t *, uint32_t *dropped);

/*
 * The maps the BPF walker reads, owned by the cache (dt_unw_destroy closes
 * them): dt_unw_rows, an ARRAY of the cache's maxrows rows, mapped by the
 * consumer (BPF_F_MMAPABLE) so that a file's rows are one copy rather than
 * an update each; dt_unw_procs, a HASH of up to maxprocs tgid ->
 * dt_unw_proc_t.  0, or a negative errno (-EPERM without CAP_BPF).
 */
int dt_unw_maps_create(dt_unw_t *, uint32_t maxprocs);
int dt_unw_rows_fd(const dt_unw_t *);  /* -1 before dt_unw_maps_create */
int dt_unw_procs_fd(const dt_unw_t *); /* -1 before dt_unw_maps_create */

/*
 * Build what pid needs and load it: its mappings read now, the rows of its
 * files not known yet copied into dt_unw_rows, then its dt_unw_procs
 * entry, so that no entry names rows not loaded.  up, if not NULL, gets
 * the entry.  0, or a negative errno: dt_pmap_read's, dt_unw_proc's,
 * ks_map_update's (-E2BIG: dt_unw_procs is full).
 */
int dt_unw_load_proc(dt_unw_t *, pid_t pid, dt_unw_proc_t *up);

#endif /* DT_UNWIND_H */
