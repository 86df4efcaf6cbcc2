/*
 * dt_run.h -- an enabled program: what the code generator (dt_cg.c) lays
 * out, the runtime (dt_exec.c) loads and attaches, and the consumer
 * (dt_consume.c) decodes.
 *
 * The record ABI, shared by the generated BPF code and the consumer:
 *
 *   every output record starts with a u32 EPID (an enabled (clause, probe)
 *   pair, from 1) and a u32 of padding; the clause's data follows at fixed
 *   offsets, each item 8-byte aligned: integers as 8 bytes normalised to
 *   their type, strings as strsize bytes, tracemem as its bytes.  EPID 0 is
 *   an error record (dt_errrec_t).
 *
 * Maps: "state" (array, one value: the header below, then the global
 * variables), "scratch" (per-CPU array, one value: the record being built,
 * clause-local variables, temporaries), "dvars" (hash: thread-local
 * variables and associative arrays, bounded by dynvarsize), "events"
 * (perf event array: the per-CPU output buffers), "dt_drops" (per-CPU
 * array: drops by kind), "dt_errno" (thread -> errno, when read), "dt_zero"
 * (a zero value for new aggregation entries and struct elements), one hash
 * per aggregation and one per dynamic struct or union variable (dt_souvar_t).
 */
#ifndef DT_RUN_H
#define DT_RUN_H

#include "dt_impl.h"
#include "ks.h"

/* the state map's header */
#define DT_ST_ACTIVITY 0 /* u64: DT_ACTIVITY_* */
#define DT_ST_WALLOFF  8 /* u64: walltime - monotonic clock, ns */
#define DT_ST_HDRSIZE  64

/* dt_drops, per CPU: u64 counts of what was lost, by kind */
#define DT_DROP_PRINCIPAL 0 /* the principal buffer had no room */
#define DT_DROP_AGG	  1 /* an aggregation was full */
#define DT_DROP_DYN	  2 /* the dynamic variable space was full */
#define DT_DROP_NKINDS	  3

/* activity (as illumos dtrace_activity_t): which probes may record */
#define DT_ACTIVITY_WARMUP   1 /* BEGIN only */
#define DT_ACTIVITY_ACTIVE   2 /* every probe but BEGIN and END */
#define DT_ACTIVITY_DRAINING 3 /* exit() was called: nothing */
#define DT_ACTIVITY_ENDING   4 /* END only */

/* faults, as illumos DTRACEFLT_* */
#define DT_FLT_BADADDR 1
#define DT_FLT_DIVZERO 3

typedef struct dt_errrec {
	uint32_t er_zero;   /* EPID 0 */
	uint32_t er_epid;   /* the clause that faulted */
	uint32_t er_action; /* 0: predicate; else the statement, from 1 */
	uint32_t er_pc;	    /* instruction offset in its program */
	uint64_t er_fault;
	uint64_t er_addr;
} dt_errrec_t;

typedef enum dt_rkind { DT_RK_INT, DT_RK_STR, DT_RK_MEM } dt_rkind_t;

typedef struct dt_rec {
	uint32_t r_off, r_size; /* r_size: the type's size for integers */
	dt_rkind_t r_kind;
	bool r_signed;
} dt_rec_t;

typedef enum dt_akind {
	DT_A_TRACE,
	DT_A_PRINTF,
	DT_A_EXIT,
	DT_A_TRACEMEM,
	/* done by the consumer when it reads the record, as illumos's library actions */
	DT_A_PRINTA,
	DT_A_CLEAR,
	DT_A_TRUNC,
	DT_A_NORMALIZE,
	DT_A_DENORMALIZE,
} dt_akind_t;

typedef struct dt_act {
	dt_akind_t a_kind;
	const char *a_fmt; /* printf, printa (NULL: printa without a format) */
	int a_rec, a_nrecs;
	const uint32_t *a_aggs; /* printa...: the aggregations' ids */
	int a_naggs;
} dt_act_t;

/* A clause as laid out: the same for every probe it enables. */
typedef struct dt_stmt {
	dt_node_t *st_clause;
	uint32_t st_size; /* record size, EPID included */
	bool st_laidout;
	bool st_data; /* records data (else only its EPID) */
	bool st_agg;  /* aggregates */
	dt_rec_t *st_recs;
	int st_nrecs;
	size_t st_reccap;
	dt_act_t *st_acts;
	int st_nacts;
	size_t st_actcap;
} dt_stmt_t;

typedef struct dt_ecb {
	uint32_t e_epid;
	size_t e_probe; /* index in the handle's probe table */
	dt_stmt_t *e_stmt;
} dt_ecb_t;

/* Where things live in the scratch and state values (dt_cg.c fills it). */
typedef struct dt_layout {
	uint32_t ly_strsize;
	uint32_t ly_recmax;		 /* scratch: the record at 0 */
	uint32_t ly_err;		 /* scratch: the error record */
	uint32_t ly_this;		 /* scratch: clause-local variables */
	uint32_t ly_key;		 /* scratch: a dynamic variable's key */
	uint32_t ly_val;		 /* scratch: a dynamic variable's value */
	uint32_t ly_empty;		 /* scratch: strsize zero bytes */
	uint32_t ly_tmp;		 /* scratch: string temporaries */
	uint32_t ly_scratch;		 /* scratch value size */
	uint32_t ly_state;		 /* state value size */
	uint32_t ly_keysize, ly_valsize; /* dvars */
	uint32_t ly_sousize; /* the largest dynamic struct variable: dt_zero holds as many */
	uint32_t ly_thissize, ly_tmpsize;
} dt_layout_t;

/*
 * A dynamic struct or union variable (self->s.m, a[k].m): a hash map of
 * its own, keyed as the other dynamic variables, so that its size does not
 * shrink their table.  Its elements are made by the first store to a
 * member and never freed, as in DTrace.
 */
typedef struct dt_souvar {
	uint32_t sv_id, sv_size;
	int sv_fd;
} dt_souvar_t;

/*
 * Aggregations.  Each is a hash map: key the aggregation's keys (8-byte
 * aligned like records; 8 zero bytes when it has none), value every CPU's
 * slots in CPU order (a probe adds to its own CPU's), each CPU's u64
 * slots: [0] how many times this CPU updated it, then by function
 *   count: -   sum, avg: [1] sum   min, max: [1] the value
 *   stddev: [1] sum, [2] [3] sum of squares (128 bits, low then high)
 *   quantize, lquantize, llquantize: [1...] the buckets
 */
typedef enum dt_aggfn {
	DT_AGG_COUNT,
	DT_AGG_SUM,
	DT_AGG_MIN,
	DT_AGG_MAX,
	DT_AGG_AVG,
	DT_AGG_STDDEV,
	DT_AGG_QUANTIZE,
	DT_AGG_LQUANTIZE,
	DT_AGG_LLQUANTIZE,
} dt_aggfn_t;

#define DT_QUANTIZE_NBUCKETS	127 /* as illumos: 63 negative, zero, 63 positive */
#define DT_QUANTIZE_ZERO	63
#define DT_LLQUANTIZE_MAXORDERS 64

typedef struct dt_agg {
	const char *ag_name; /* without '@'; "" for the anonymous one */
	uint32_t ag_id;	     /* from 1, in order of first use */
	dt_aggfn_t ag_fn;
	int64_t
	    ag_args[4]; /* lquantize: base, levels, step; llquantize: factor, low, high, steps */
	int ag_nkeys;
	dt_rec_t ag_keys[DT_MAXPROBEARGS]; /* where each key is in the map's key */
	uint32_t ag_keysize, ag_valsize, ag_nbuckets;
	int64_t *ag_llqval; /* llquantize: each bucket's label (its lower bound) */
	int ag_fd;
	/* the consumer's */
	uint64_t ag_normal; /* normalize(): 1 unless set */
	bool ag_printed;    /* printed by printa: not again at exit */
	void *ag_snap;	    /* the last snapshot (dt_agg.c) */
} dt_agg_t;

/*
 * llquantize's buckets as illumos counts them: bucket 0 below factor^low,
 * then for each order of magnitude up to high, nsteps buckets (fewer while
 * factor^k is smaller) less those the previous order covered, then the top
 * one.  dt_llq_orders() fills each order's bounds [last, this), bucket
 * width and first bucket, and returns the number of buckets; the code
 * generator picks buckets with it, the consumer labels them.
 */
typedef struct dt_llq_order {
	int64_t lo_last, lo_this, lo_width;
	uint32_t lo_base;
} dt_llq_order_t;

uint32_t dt_llq_orders(const int64_t args[4], dt_llq_order_t *o, int *norders);

/* One BPF program: a probe's clauses for one argument specification. */
typedef struct dt_bprog {
	size_t bp_probe;
	const char *bp_argspec; /* USDT; NULL otherwise */
	int bp_fd;
	bool bp_multi; /* loaded for a uprobe_multi link */
} dt_bprog_t;

/* Kernel structure offsets code generation reads the current task through (dt_run_t's r_off). */
typedef enum dt_toff {
	DT_TOFF_REAL_PARENT, /* task_struct.real_parent */
	DT_TOFF_TGID,	     /* task_struct.tgid */
	DT_TOFF_SUM_EXEC,    /* task_struct.se.sum_exec_runtime */
	DT_TOFF_GROUP_LEADER,
	DT_TOFF_COMM, /* task_struct.comm, 16 bytes */
	DT_TOFF_CRED, /* task_struct.cred, then cred.euid and cred.egid */
	DT_TOFF_EUID,
	DT_TOFF_EGID,
	DT_TOFF_SIGNAL, /* task_struct.signal, then signal_struct.nr_threads */
	DT_TOFF_NR_THREADS,
	DT_TOFF_PGID_PID, /* signal_struct.pids[PIDTYPE_PGID] */
	DT_TOFF_SID_PID,  /* signal_struct.pids[PIDTYPE_SID] */
	DT_TOFF_PID_NR,	  /* pid.numbers[0].nr: the number in the initial namespace */
	DT_TOFF_MM,	  /* task_struct.mm, then mm_struct.arg_start and arg_end */
	DT_TOFF_ARG_START,
	DT_TOFF_ARG_END,
	DT_TOFF_N
} dt_toff_t;

typedef struct dt_run {
	dt_stmt_t *r_stmts;
	int r_nstmts;
	dt_ecb_t *r_ecbs; /* EPID n at r_ecbs[n - 1] */
	uint32_t r_necbs;
	size_t r_ecbcap;
	dt_layout_t r_layout;
	dt_strset_t *r_vars; /* variable name -> dt_var_t */
	dt_souvar_t *r_souvars;
	uint32_t r_nsouvars;
	dt_agg_t **r_aggs; /* by id - 1 */
	uint32_t r_naggs;
	size_t r_aggcap;
	uint32_t r_aggzero; /* the largest aggregation value: dt_zero's size */
	int r_zero_fd;	    /* an array of one zeroed value, to create aggregation entries */
	int r_nvarids;
	dt_arena_t r_arena;
	bool r_quiet;
	bool r_json; /* -x oformat=json */
	/* kernel objects */
	int r_state_fd, r_scratch_fd, r_dvars_fd, r_events_fd;
	int r_drops_fd;	  /* per CPU: drops by kind (DT_DROP_*) */
	int r_errno_fd;	  /* thread id -> errno of its last system call, if a clause reads errno */
	bool r_use_errno; /* set by code generation's first pass */
	dt_bprog_t *r_progs;
	size_t r_nprogs, r_progcap;
	int *r_links;
	size_t r_nlinks, r_linkcap;
	ks_perfbuf_t *r_pb;
	int r_ncpus;
	/*
	 * Kernel structure offsets for ppid, vtimestamp, curpsinfo and
	 * curlwpsinfo, from the kernel's BTF (DT_TOFF_*): -1 where the kernel
	 * has no such member, -2 (in [0]) until first looked up.
	 */
	int r_off[DT_TOFF_N];
	/* the consumer */
	FILE *r_out;
	int r_status; /* DTRACE_STATUS_* */
	int r_exitval;
	bool r_started; /* dtrace_go() has run */
	bool r_exited, r_stopped, r_header_done, r_end_drained;
	uint64_t *r_drops_seen; /* dt_drops as last reported, [cpu][kind]; then room for a read */
	int r_error;		/* a callback's errno */
	/* the target */
	pid_t r_target;
	int r_pidfd;
	bool r_target_exited, r_target_child, r_target_stopped;
	int r_target_status;
} dt_run_t;

/*
 * Generate the program of one probe: the clauses of the ECBs listed, for
 * the USDT argument specification argspec (NULL: none).  Returns 0 with
 * the code, or -1 with the handle's error set (a located message).
 */
int dt_cg_probe(dtrace_hdl_t *, dt_run_t *, size_t probe, const char *argspec,
		const uint32_t *epids, int nepids, ks_code_t *out);
/* Lay out the scratch and state values once every program is generated. */
void dt_cg_layout(dt_run_t *, bool final);
void dt_cg_errno_prog(dt_run_t *, ks_code_t *);
/* task_struct offsets from the kernel's BTF, read when a program first needs them. */
void dt_task_offsets(dt_run_t *);
/* Open the output buffers (dt_consume.c). */
int dt_consume_open(dtrace_hdl_t *, dt_run_t *);
/* The consumer's printing (dt_consume.c), shared with dt_agg.c. */
void dt_print_datum(FILE *fp, const dt_rec_t *rec, const uint8_t *data, bool quiet, int strwidth);
void dt_print_printf(FILE *fp, const char *fmt, const dt_rec_t *recs, int nrecs,
		     const uint8_t *data);
/* -x oformat=json (dt_json.c): one object per line. */
void dt_json_bytes(FILE *fp, const char *s, size_t n);
void dt_json_str(FILE *fp, const char *s);
void dt_json_datum(FILE *fp, const dt_rec_t *rec, const uint8_t *data);
bool dt_json_has_data(const dt_stmt_t *st);
int dt_json_record(FILE *fp, int cpu, const dtrace_probedesc_t *pd, const dt_stmt_t *st,
		   const uint8_t *d);
void dt_json_drop(FILE *fp, const char *kind, int cpu, uint64_t n);
void dt_json_error(FILE *fp, const dt_errrec_t *er, const dtrace_probedesc_t *pd,
		   const char *fault);
/* Aggregations in the consumer (dt_agg.c). */
int dt_agg_printa(dtrace_hdl_t *, FILE *, const dt_act_t *, const dt_rec_t *, const uint8_t *);
int dt_agg_printa_fmt(dtrace_hdl_t *, FILE *, const dt_act_t *);
int dt_agg_libact(dtrace_hdl_t *, const dt_act_t *, const dt_rec_t *, const uint8_t *);
void dt_agg_snap_free(dt_agg_t *);
void dt_agg_free(dt_run_t *);
/* Enable clauses for the target's probes that appeared since the last look. */
int dt_exec_rescan(dtrace_hdl_t *, dt_run_t *);
int dt_exec_codegen(dtrace_hdl_t *); /* both code generation passes, no kernel */

#endif /* DT_RUN_H */
