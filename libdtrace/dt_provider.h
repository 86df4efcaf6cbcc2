/*
 * dt_provider.h -- providers as modules.  Each kind of probe is one file,
 * dt_prov_NAME.c, that fills a dt_provimpl_t: which probes there are (for
 * dtrace -l and matching), which it makes on demand, the BPF programs a
 * probe needs and their type, the code that reads a probe argument, and
 * how a loaded program is attached.  The registry, dt_providers[] in
 * dt_probe.c, is made from DT_PROVIDERS below: a new provider is a new file
 * and its name there.
 *
 * Providers come after the program (dt_program.h: the fragments their
 * argument code is emitted into) and before loading (dt_load.c, which
 * calls them): they know nothing of a run but what they are handed.
 */
#ifndef DT_PROVIDER_H
#define DT_PROVIDER_H

#include "dt_program.h"
#include "ks.h"

/* The probe table being added to: the handle's arrays, handed back with dt_ptab_put(). */
typedef struct dt_ptab {
	dtrace_probedesc_t *pt_probes;
	dt_pinfo_t *pt_info;
	size_t pt_n, pt_cap;
	dt_arena_t *pt_arena; /* the handle's probe arena */
	dtrace_id_t pt_lastid;
} dt_ptab_t;

dt_ptab_t dt_ptab_get(dtrace_hdl_t *);
void dt_ptab_put(dtrace_hdl_t *, const dt_ptab_t *);
/*
 * Add one probe, with the next ID (IDs are never reused: a probe's place
 * changes when gone probes are removed): 0, or 1 out of memory.  A block
 * in the info gains a reference.
 */
int dt_ptab_add(dt_ptab_t *, const char *prov, const char *mod, const char *func, const char *name,
		const dt_pinfo_t *);

/* What linking asks a provider for: argument i of the probe, into r0 of ar_out. */
typedef struct dt_argreq {
	dtrace_hdl_t *ar_dtp;
	size_t ar_probe;
	const dt_stapsdt_arg_t *ar_args; /* a USDT program's argument specification, parsed */
	int ar_nargs;
	dt_frag_t *ar_out;
	int ar_action, ar_lfault; /* for a fault's error record, and where it jumps */
	const char *ar_argspec; /* the program's argument specification, as pv_programs named it */
} dt_argreq_t;

/* The attachments of a run (close each to detach). */
typedef struct dt_links {
	int *ln_fds;
	size_t ln_n, ln_cap;
} dt_links_t;

/* Keep fd: 0, or -1 with EDT_NOMEM (fd closed). */
int dt_links_add(dtrace_hdl_t *, dt_links_t *, int fd);
/* Attach program fd of probe p to the raw tracepoint name, kept in links: 0, or -1. */
int dt_attach_raw_tp(dtrace_hdl_t *, size_t p, int fd, const char *name, dt_links_t *links);

/* A program probe p needs, for the USDT argument specification argspec (or NULL). */
typedef int dt_progspec_f(void *arg, const char *argspec);

typedef struct dt_provimpl {
	const char *pv_name;
	/*
	 * Its args[] are translated by the D library's translators (proc's
	 * psinfo_t * of procfs.d): a program that names the provider and
	 * args compiles the library (dt_dlib.c), whatever else it names.
	 */
	bool pv_dlib;
	/*
	 * Add the probes there are now, when the table is first read: 0, or 1
	 * (no memory).  Cheap: what costs (a process's USDT probes) waits for
	 * a description that can match it (pv_provide).
	 */
	int (*pv_populate)(dtrace_hdl_t *, dt_ptab_t *);
	/*
	 * Make the probes a description names that are made on demand (tick-10ms,
	 * a file as a module, a process's USDT probes): 0, or -1 with the
	 * handle's error.  The description is NULL for dtrace -l with none:
	 * the probes listed then.  May be NULL.
	 */
	int (*pv_provide)(dtrace_hdl_t *, const dtrace_probedesc_t *);
	/*
	 * Are the probes of this description made when the program compiles
	 * (pv_provide then), so that what is wrong with it is a compile error
	 * that dtrace -e finds, under the tag the provider set in dt_ptag?  As
	 * illumos makes pid probes in dt_setcontext.  May be NULL: never.
	 */
	bool (*pv_at_compile)(const dtrace_probedesc_t *);
	/*
	 * Add the probes of process pid that appeared since it was last read
	 * (libraries loaded, providers made at run time): 0, or -1.  Called
	 * only when the process's executable mappings changed: hash is
	 * dt_maps_hash's.  May be NULL.
	 */
	int (*pv_rescan)(dtrace_hdl_t *, pid_t pid, uint64_t hash);
	/*
	 * Name each program probe p needs (none: its clauses run in other
	 * probes' programs).  NULL: one, with no argument specification.
	 */
	int (*pv_programs)(dtrace_hdl_t *, size_t p, dt_progspec_f *, void *);
	/*
	 * The program's BPF type, expected attach type (0, KS_UPROBE_MULTI,
	 * BPF_TRACE_RAW_TP, BPF_TRACE_FENTRY...), and for a program bound to
	 * a kernel type when it loads (tp_btf, fentry) that type's id in
	 * vmlinux BTF (the caller sets *btf_id to 0 first).  NULL: a raw
	 * tracepoint (BPF_PROG_TYPE_RAW_TRACEPOINT, attach type 0).
	 */
	void (*pv_progtype)(const dt_pinfo_t *, enum bpf_prog_type *, uint32_t *attach_type,
			    uint32_t *btf_id);
	/* The activity its clauses run in (DT_ACTIVITY_*).  NULL: DT_ACTIVITY_ACTIVE. */
	uint32_t (*pv_activity)(const dt_pinfo_t *);
	/* r0 = argument i: 0, or -1 with the handle's error (an operand it cannot read). */
	int (*pv_arg)(const dt_argreq_t *, int i);
	/* Attach the loaded program of probe p for argspec, on ncpus CPUs: 0, or -1. */
	int (*pv_attach)(dtrace_hdl_t *, size_t p, const char *argspec, int prog_fd,
			 uint32_t attach_type, int ncpus, dt_links_t *);
	/*
	 * Is what probe p is in gone for good (a runtime provider's image
	 * removed, a library's file deleted)?  Its program and links are then
	 * closed while tracing goes on.  May be NULL: never.
	 */
	bool (*pv_gone)(dtrace_hdl_t *, size_t p);
	/*
	 * Programs shared by many probes (groups).  The group probe p's
	 * program belongs to, and its key there: the enabled probes of one
	 * provider with the same group and argument specification get one
	 * program (dt_load.c, plan), whose table maps a key to the probe and
	 * to the EPID of each clause (0: the clause does not enable it).
	 * Keys are unique within a group, and small: the table is an array
	 * up to the largest.  NULL (or a NULL hook): a program of its own,
	 * as before.
	 */
	const char *(*pv_group)(dtrace_hdl_t *, size_t p, uint32_t *key);
	/*
	 * A group's guard, emitted before the prologue: from the context in
	 * r6, r0 = the key of the probe that fires, or a jump to label
	 * ar_lfault when none can (keys with no enabled probe exit after it,
	 * at the table).  ar_probe is one of the group's probes.  0, or -1
	 * with the handle's error.
	 */
	int (*pv_guard)(const dt_argreq_t *);
	/*
	 * More of the guard, run once the table has an enabled probe for the
	 * key (in r9: keep it, and r6), so that every other event stops at
	 * the table: checks that cost helper calls.  Jumps to ar_lfault to
	 * exit.  May be NULL.
	 */
	int (*pv_guard_after)(const dt_argreq_t *);
	/*
	 * Attach a group's loaded program for all its n probes and their keys
	 * (pid: one uprobe_multi link over their sites, each site's cookie its
	 * key, which the guard reads back): 0, or -1.  May be NULL: pv_attach
	 * of the group's first probe (syscall: one raw tracepoint for all).
	 */
	int (*pv_attach_group)(dtrace_hdl_t *, const size_t *probes, const uint32_t *keys, size_t n,
			       int prog_fd, uint32_t attach_type, dt_links_t *);
	/*
	 * Probes whose clauses are the same share a program, as a group
	 * (dt_load.c, plan): its keys are the probes' places in it, 0 on,
	 * which pv_attach_group gives each probe's attachment (an attach
	 * cookie) and pv_guard reads back.  A probe with clauses of its own
	 * gets a program of its own, as without it.
	 */
	bool pv_share;
	/*
	 * Code that runs first in the program of these n probes (a group's
	 * probes, or one probe alone), before the guard: the context in r1,
	 * which it leaves there; r0 and r2-r9 and the stack are its own.
	 * 0, or -1 with the handle's error.  May be NULL: none.
	 */
	int (*pv_entry)(dtrace_hdl_t *, const size_t *probes, size_t n, dt_frag_t *out);
	/*
	 * Why this provider has no probes on this system, in one line
	 * ("kernel functions cannot be traced: loading an fentry program
	 * failed: Operation not permitted"), or NULL when it can work.  Asked
	 * only when a description that names the provider matched nothing.
	 * May be NULL: always available.
	 */
	const char *(*pv_unavailable)(dtrace_hdl_t *);
} dt_provimpl_t;

/*
 * The providers, in the order their probes are first listed: each NAME is
 * a file dt_prov_NAME.c that defines dt_prov_NAME.  A new provider is its
 * file and its name here.
 */
#define DT_PROVIDERS(X) X(dtrace) X(profile) X(usdt) X(syscall) X(pid) X(fbt) X(proc) X(sched) X(io)

#define DT_PROV_EXTERN(name) extern const dt_provimpl_t dt_prov_##name;
DT_PROVIDERS(DT_PROV_EXTERN)
#undef DT_PROV_EXTERN

/* Every provider of DT_PROVIDERS, in its order; NULL ends it. */
extern const dt_provimpl_t *const dt_providers[];

/* What dtrace_go and the consumer need to know of the dtrace provider's own probes. */
static inline bool dt_probe_is(const dtrace_hdl_t *dtp, size_t p, dt_pkind_t kind)
{
	return dtp->dt_pinfo[p].pi_kind == kind;
}

/* A probe's provider. */
static inline const dt_provimpl_t *dt_probe_prov(const dtrace_hdl_t *dtp, size_t p)
{
	return dtp->dt_pinfo[p].pi_prov;
}

/*
 * pv_gone for probes in a file (USDT, pid): is pi_path gone?  A runtime
 * provider's image is removed when it is disabled, rebuilt or destroyed
 * (its mapping goes with it); a mapping read through /proc/PID/map_files
 * or a process's root goes when the mapping or the process does.
 */
bool dt_probe_file_gone(dtrace_hdl_t *, size_t p);

/*
 * A hash of the executable mappings of process pid (/proc/PID/maps), never
 * 0; 0 when they cannot be read (the process is gone).
 */
uint64_t dt_maps_hash(pid_t pid);

/*
 * The timer group of CPU cpu that a timer attached now joins (ks_timer_group:
 * dtrace_go starts them all together once every program is attached), or
 * -1: none (it could not be made), the timer starts on its own.  Each CPU
 * has two: for fast timers and for the others (the kernel throttles a
 * whole group when one of its timers fires too often: dt_prov_profile.c).
 */
int dt_timer_group(dtrace_hdl_t *, int cpu, bool fast);

/* "cannot enable P:M:F:N: why" for errno err (EDT_NOPRIV for EPERM, EACCES): -1. */
int dt_probe_attach_err(dtrace_hdl_t *, size_t p, int err);

/*
 * A description that matched nothing: if a provider it names cannot work
 * here, EDT_PROVUNAVAIL with "NAME: why" and -1; else 0.
 */
int dt_probe_unavailable(dtrace_hdl_t *, const dtrace_probedesc_t *);

/*
 * r0 = argument i of a program whose context is n 8-byte arguments (fentry,
 * fexit, tp_btf: the kernel's own), reading only those there are (the
 * verifier refuses the others): 0 for i >= n.  An integer even where the
 * kernel's type is a pointer; r1-r5 and the stack's temporary clobbered.
 */
void dt_prov_ctx_arg(const dt_argreq_t *, int i, int n);

/*
 * fbt's probes for the functions desc's function field names (a glob;
 * empty: every one), made whether or not this kernel can trace them (fbt's
 * pv_provide asks that first): 0, or -1 (EDT_NOMEM).  For the tests.
 */
int dt_prov_fbt_list(dtrace_hdl_t *, const dtrace_probedesc_t *desc);

/*
 * Remove the probes whose drop[] is set (their objects gone, nothing of a
 * run using them), releasing their blocks; newidx[i] is the new place of
 * probe i (unchanged for the dropped ones' successors' order).  Returns
 * how many were removed.
 */
size_t dt_probe_remove(dtrace_hdl_t *, const bool *drop, size_t *newidx);

/* Let every provider make the probes a description (NULL: dtrace -l) names on demand: 0, or -1. */
int dt_probe_provide(dtrace_hdl_t *, const dtrace_probedesc_t *);

#endif /* DT_PROVIDER_H */
