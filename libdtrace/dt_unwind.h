/*
 * dt_unwind.h -- the unwind tables ustack() walks in BPF
 * (docs/issue 18's design, section 1): each ELF file's .eh_frame turned
 * into sorted 16-byte rows by the consumer, the rows of every file kept
 * once in one array (dt_unw_rows, when loaded), and per process the row
 * range of each executable mapping (dt_unw_procs).
 *
 * A row holds from its pc to the next row's; the last row of a range is
 * always DT_UNW_END.  pc is the file's link-time address (ELF text lies
 * below 4 GB), so the walker looks up pc - bias.
 */
#ifndef DT_UNWIND_H
#define DT_UNWIND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dt_pmap.h"

/* How to find the caller's frame (CFA: the caller's rsp; the return address is at CFA - 8). */
enum {
	DT_UNW_END = 0, /* no rule: a gap, an undefined return address (_start) or a rule
			   the walker cannot follow; the stack ends here (zero rows are END) */
	DT_UNW_RSP,	/* CFA = rsp + cfa_off */
	DT_UNW_RBP,	/* CFA = rbp + cfa_off */
	DT_UNW_PLT1,	/* .plt: CFA = rsp + 8, + 8 more if (rip & 15) >= 11 */
	DT_UNW_PLT2,	/* the same with >= 10 */
	DT_UNW_SIGNAL,	/* a signal frame ("zRS" CIE, __restore_rt): rsp, rip and rbp are
			   uc_mcontext's, at rsp + 160, + 168 and + 120 */
	DT_UNW_FP,	/* no table: the caller's rbp at [rbp], its return address at [rbp + 8] */
};

/* How to find the caller's rbp. */
enum {
	DT_UNW_SAME = 0,   /* unchanged */
	DT_UNW_AT_CFA_OFF, /* saved at CFA + rbp_off */
};

/* One row, as the BPF walker reads it (16 bytes). */
typedef struct dt_unw_row {
	uint32_t ur_pc;
	int32_t ur_cfa_off;
	int16_t ur_rbp_off;
	uint8_t ur_cfa_kind; /* DT_UNW_END... */
	uint8_t ur_rbp_kind; /* DT_UNW_SAME, DT_UNW_AT_CFA_OFF */
	uint32_t ur_reserved;
} dt_unw_row_t;

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
const dt_unw_row_t *dt_unw_rows(const dt_unw_t *, uint32_t *n);

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

/* A process's entry in dt_unw_procs: its executable mappings, sorted by start. */
#define DT_UNW_MAXMAPS 64

typedef struct dt_unw_map {
	uint64_t um_start, um_end; /* [start, end) in the process */
	uint64_t um_bias;	   /* address - link-time address */
	uint32_t um_lo, um_hi;	   /* rows; lo == hi: none (the walker steps by rbp) */
} dt_unw_map_t;

typedef struct dt_unw_proc {
	uint32_t up_n;
	uint32_t up_dropped; /* executable mappings past DT_UNW_MAXMAPS, not described */
	dt_unw_map_t up_maps[DT_UNW_MAXMAPS];
} dt_unw_proc_t;

/*
 * The entry of a process from its mappings (dt_pmap_read): each
 * executable mapping with the row range of its file, built if new.
 * [vdso]'s rows come from its image in the process (/proc/PID/mem).
 * Anonymous and unreadable executable mappings (JIT code) have an empty
 * range; [vsyscall] (a kernel address) is left out.  0, or a
 * negative errno (dt_unw_file's; a file that does not fit is -ENOSPC).
 */
int dt_unw_proc(dt_unw_t *, const dt_pmap_t *, dt_unw_proc_t *);

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
