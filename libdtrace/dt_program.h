/*
 * dt_program.h -- the compiled program: what compiling a D program makes
 * and what loading it uses.  Nothing here touches the kernel.
 *
 * Compiling generates each clause once, as a fragment of BPF (dt_frag_t):
 * instructions whose jumps still name labels, with relocations for what
 * only loading knows (map file descriptors, where the scratch regions
 * are, the EPID of the (clause, probe) pair, kernel structure offsets)
 * and pseudo-instructions that linking expands for the probe the clause
 * runs on (its arguments, its names, the ERROR clauses of a fault).  The
 * records a clause writes are described with it (dt_stmt_t), for the
 * consumer.
 *
 * The record ABI, shared by the generated BPF code and the consumer:
 *
 *   every output record starts with a u32 EPID (an enabled (clause, probe)
 *   pair, from 1) and a u32 speculation tag (0: the record is not
 *   speculative; else DT_SPEC_TAG: it belongs to that speculation); the
 *   clause's data follows at fixed offsets, each item 8-byte aligned:
 *   integers as 8 bytes normalised to their type (a float's or double's
 *   bits too, r_float), strings as strsize bytes, tracemem as its bytes, a
 *   traced struct or union as its bytes (an integer when of 1, 2, 4 or 8),
 *   print() as the pointer then the pointee's bytes.  EPID 0 is an error
 *   record (dt_errrec_t).
 *
 * Maps (dt_mapid_t): "state" (array, one value: the header below, then
 * the global variables), "scratch" (per-CPU array, one value: the record
 * being built at 0, then the regions of dt_region_t), "dvars" (hash:
 * thread-local variables and associative arrays, bounded by dynvarsize),
 * "events" (perf event array: the per-CPU output buffers), "dt_drops"
 * (per-CPU array: drops by kind), "dt_errno" (thread -> errno, when read),
 * "dt_zero" (a zero value for new aggregation entries and struct
 * elements), "dt_spec" (array, one mmapable value: nspec u64 slots, each
 * speculation's DT_SPEC_* state and generation), one hash per aggregation,
 * reached through an array of maps per shape (key and value sizes) at the
 * aggregation's id, so that a program names one map per shape, not per
 * aggregation (the kernel lets a program name 64), and one hash per
 * dynamic struct or union variable (dt_souvar_t).
 */
#ifndef DT_PROGRAM_H
#define DT_PROGRAM_H

#include <linux/bpf.h>
#include <stdio.h>

#include "dt_impl.h"

/* the state map's header */
#define DT_ST_ACTIVITY 0 /* u64: DT_ACTIVITY_* */
#define DT_ST_WALLOFF  8 /* u64: walltime - monotonic clock, ns */
#define DT_ST_HDRSIZE  64

/* dt_drops, per CPU: u64 counts of what was lost, by kind */
#define DT_DROP_PRINCIPAL   0 /* the principal buffer had no room */
#define DT_DROP_AGG	    1 /* an aggregation was full */
#define DT_DROP_DYN	    2 /* the dynamic variable space was full */
#define DT_DROP_SPECBUSY    3 /* speculation() failed: a buffer is being committed or discarded */
#define DT_DROP_SPECUNAVAIL 4 /* speculation() failed: every buffer is active */
#define DT_DROP_NKINDS	    5

/*
 * Speculations (as illumos dtrace_speculation_state_t, fewer states): slot
 * id - 1 of dt_spec's value holds generation << 8 | state.  speculation() takes an
 * INACTIVE slot (the generation goes up by one), commit() and discard()
 * move an ACTIVE one to COMMITTING or DISCARDING and write the tag in
 * their record; the consumer, which holds the speculative records, acts on
 * that record and makes the slot INACTIVE again when it cleans (cleanrate).
 * A speculative record's tag names the generation, so that a record
 * written before the commit but read after it still finds its speculation.
 */
#define DT_SPEC_INACTIVE     0
#define DT_SPEC_ACTIVE	     1
#define DT_SPEC_COMMITTING   2
#define DT_SPEC_DISCARDING   3
#define DT_SPEC_STATE(v)     ((v)&0xff)
#define DT_SPEC_GEN(v)	     (((v) >> 8) & 0xffff) /* the generation as a tag has it */
#define DT_SPEC_TAG(gen, id) ((uint32_t)(gen) << 16 | (uint32_t)(id))
/*
 * nspec at most: speculation() looks at every slot, and the verifier walks
 * the rest of the program from each
 */
#define DT_SPEC_MAX 256
/* speculation() calls times nspec at most, in all the programs of a handle */
#define DT_SPEC_WALK 8192

/* activity (as illumos dtrace_activity_t): which probes may record */
#define DT_ACTIVITY_WARMUP   1 /* BEGIN only */
#define DT_ACTIVITY_ACTIVE   2 /* every probe but BEGIN and END */
#define DT_ACTIVITY_DRAINING 3 /* exit() was called: nothing */
#define DT_ACTIVITY_ENDING   4 /* END only */

/* faults, as illumos DTRACEFLT_* */
#define DT_FLT_BADADDR	 1
#define DT_FLT_DIVZERO	 3
#define DT_FLT_NOSCRATCH 5 /* alloca() or copyin() beyond the scratch space */
/* illegal operation (illumos 3): raise() of no signal; speculate(), commit(), discard() above nspec */
#define DT_FLT_ILLOP 6
#define DT_ERR_NOPC  UINT32_MAX /* er_pc: the fault is not at an instruction (-1) */

/*
 * The alloca region (DT_SR_ALLOCA), when a clause allocates: a u64 the
 * bytes given out in this clause (a multiple of 8, scratchsize at most;
 * reset when the clause starts), a u64 word where an address is stored
 * and read back as a plain number (a map value pointer cannot be kept in
 * a variable or traced), then 2 * scratchsize bytes: an allocation starts
 * within the first scratchsize and has scratchsize bytes at most, the
 * bounds the verifier can see.  Pointers to this memory are what D calls
 * scratch memory: a pointer read between DT_ALLOCA_DATA and scratchsize
 * after it is read with probe_read_kernel, any other with probe_read_user.
 */
#define DT_ALLOCA_USED 0
#define DT_ALLOCA_WORD 8
#define DT_ALLOCA_DATA 16

typedef struct dt_errrec {
	uint32_t er_zero;   /* EPID 0 */
	uint32_t er_epid;   /* the clause that faulted */
	uint32_t er_action; /* 0: predicate; else the statement, from 1 */
	uint32_t er_pc;	    /* instruction offset in its clause */
	uint64_t er_fault;
	uint64_t er_addr;
} dt_errrec_t;

/* ---------------------------------------------------------------- fragments */

/* The maps a fragment names (DT_RL_MAP); aggregations and struct variables by number. */
typedef enum dt_mapid {
	DT_MAP_STATE,
	DT_MAP_SCRATCH,
	DT_MAP_DVARS,
	DT_MAP_EVENTS,
	DT_MAP_DROPS,
	DT_MAP_ERRNO,
	DT_MAP_ZERO,
	DT_MAP_SPEC,
	DT_MAP_NFIXED,
} dt_mapid_t;

#define DT_MAP_AGG(id) (0x10000u + (id)) /* aggregation id (from 1): its shape's array of maps */
#define DT_MAP_SOU(i)  (0x20000u + (i))	 /* dynamic struct variable i (from 0) */

/* The regions of the scratch value after the record, placed when the program loads. */
typedef enum dt_region {
	DT_SR_REC,    /* the record being built: at 0, never relocated */
	DT_SR_ERR,    /* the error record */
	DT_SR_ERR2,   /* an ERROR clause's own error record: its ERR stays the fault's */
	DT_SR_THIS,   /* clause-local variables */
	DT_SR_KEY,    /* a dynamic variable's or aggregation's key */
	DT_SR_VAL,    /* a dynamic variable's value */
	DT_SR_EMPTY,  /* strsize zero bytes */
	DT_SR_TMP,    /* string temporaries */
	DT_SR_ALLOCA, /* alloca() and copyin(): DT_ALLOCA_* below */
	DT_SR_N,
} dt_region_t;

/*
 * Kernel structure offsets code generation reads the current task
 * through, resolved when the program loads (DT_RL_TOFF).
 */
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

/* What a relocation puts into its instruction when the program is linked. */
typedef enum dt_rlkind {
	DT_RL_MAP,	/* ld_imm64: the map rl_arg (dt_mapid_t, DT_MAP_AGG, DT_MAP_SOU) */
	DT_RL_SCR,	/* += the base of scratch region rl_arg: off (ld/st), else imm */
	DT_RL_EPID,	/* imm = the EPID */
	DT_RL_PRID,	/* imm = the probe's id */
	DT_RL_NCPUS,	/* imm = the number of possible CPUs */
	DT_RL_TOFF,	/* imm += the kernel structure offset rl_arg (dt_toff_t) */
	DT_RL_ACTIVITY, /* imm = the activity the probe fires in (DT_ACTIVITY_*) */
	DT_RL_CALL,	/* a BPF-to-BPF call of subprogram rl_arg (dt_subr_t) */
	DT_RL_NSPEC,	/* imm = nspec, the number of speculation slots */
} dt_rlkind_t;

typedef struct dt_reloc {
	uint32_t rl_insn;
	dt_rlkind_t rl_kind;
	uint32_t rl_arg;
} dt_reloc_t;

/*
 * Pseudo-instructions: one placeholder instruction (code DT_PSEUDO_CODE,
 * imm its index in fr_px) that linking replaces by the code of the probe.
 */
#define DT_PSEUDO_CODE 0xff /* not a BPF opcode: class ALU64, op 0xf0 (none) */

typedef enum dt_pxkind {
	DT_PX_ARG,	/* r0 = argument px_arg (argN, args[N]) */
	DT_PX_PROBESTR, /* r0 = a temporary (px_off) holding name px_arg: 0 provider ... 3 name */
	DT_PX_KEYZERO,	/* zero the whole key region (its size is the program's) */
	DT_PX_DEFOUT,	/* the px_arg instructions after it, unless the consumer is quiet */
	DT_PX_ERROR,	/* the ERROR clauses, after a fault's error record went out */
	DT_PX_CLAUSES,	/* the prologue's place for the probe's clauses */
	DT_PX_FAULTS, /* the px_arg instructions after it (the fault block), if px_lfault is reached */
} dt_pxkind_t;

typedef struct dt_pseudo {
	dt_pxkind_t px_kind;
	int px_arg;
	uint32_t px_off;     /* DT_PX_PROBESTR: the temporary, in DT_SR_TMP */
	int px_action;	     /* DT_PX_ARG: the statement, for a fault's record */
	int px_lfault;	     /* DT_PX_ARG: the clause's fault label */
	const char *px_what; /* DT_PX_ARG: what is read, for a message at link time */
} dt_pseudo_t;

typedef struct dt_fixup {
	size_t fx_insn;
	int fx_label;
} dt_fixup_t;

/*
 * A fragment: instructions, the labels they jump to (an instruction index,
 * -1 until placed), the jumps to labels, the relocations and the
 * pseudo-instructions, each list in instruction order.
 */
typedef struct dt_frag {
	struct bpf_insn *fr_insns;
	size_t fr_len, fr_cap;
	long *fr_labels;
	int fr_nlabels;
	size_t fr_labcap;
	dt_fixup_t *fr_fix;
	size_t fr_nfix, fr_fixcap;
	dt_reloc_t *fr_rel;
	size_t fr_nrel, fr_relcap;
	dt_pseudo_t *fr_px;
	size_t fr_npx, fr_pxcap;
	bool fr_oom; /* an addition failed for memory: the fragment is unusable */
} dt_frag_t;

/* Building fragments (dt_program.c): each sets fr_oom instead of failing. */
void dt_frag_emit(dt_frag_t *, struct bpf_insn);
int dt_frag_label(dt_frag_t *);
void dt_frag_place(dt_frag_t *, int label);
void dt_frag_emit_to(dt_frag_t *, struct bpf_insn, int label); /* a jump or call to label */
void dt_frag_reloc(dt_frag_t *, dt_rlkind_t, uint32_t arg);    /* on the last instruction */
void dt_frag_pseudo(dt_frag_t *, const dt_pseudo_t *);
/*
 * Fix every jump's offset, in place; the fragment keeps its labels.  0, or
 * -1 with a message in err (a label not placed, a jump too far).
 */
int dt_frag_resolve(dt_frag_t *, char *err, size_t errlen);
void dt_frag_free(dt_frag_t *);
/* Empty a fragment for reuse; it keeps its memory. */
void dt_frag_reset(dt_frag_t *);
/* A copy of src in arrays of its exact sizes: 0, or -1 (no memory; dst empty). */
int dt_frag_copy(dt_frag_t *dst, const dt_frag_t *src);

/*
 * Sequences the code generator and the providers' argument code share.
 * Registers as dt_cg.c uses them: r8 the scratch value, r10 the stack.
 */
void dt_frag_extend(dt_frag_t *, int reg, size_t sz, bool sign); /* from sz bytes */
/* The error record of a fault (r8's DT_SR_ERR), then a jump to the clause's lfault. */
void dt_frag_fault(dt_frag_t *, int kind, int addrreg, int action, int lfault);
/* r0 = a temporary at off in DT_SR_TMP holding s (len bytes, cut at strsize - 1). */
void dt_frag_string(dt_frag_t *, uint32_t off, const char *s, size_t len, uint32_t strsize);
/* r0 = sz bytes of user memory at r0, extended; a bad address faults (r9 clobbered). */
void dt_frag_load_user(dt_frag_t *, size_t sz, bool sign, int action, int lfault);

/* Shared subprograms, called with DT_RL_CALL. */
typedef enum dt_subr {
	DT_SUBR_STRCMP, /* r0 = strcmp(r1, r2) over strsize bytes */
	DT_SUBR_N
} dt_subr_t;

/* ---------------------------------------------------------------- clauses */

/* DT_RK_BYTES: a struct or union's bytes, printed as dt_print_bytes does (a string or a dump) */
typedef enum dt_rkind { DT_RK_INT, DT_RK_STR, DT_RK_MEM, DT_RK_BYTES } dt_rkind_t;

typedef struct dt_rec {
	uint32_t r_off, r_size; /* r_size: the type's size for integers */
	dt_rkind_t r_kind;
	bool r_signed;
	bool r_float; /* DT_RK_INT holding a float's (4) or double's (8) bits */
} dt_rec_t;

typedef enum dt_akind {
	DT_A_TRACE,
	DT_A_PRINTF,
	DT_A_EXIT,
	DT_A_TRACEMEM,
	DT_A_PRINT, /* print(p): the pointer, then the bytes of *p, printed by a_type */
	/* done by the consumer when it reads the record, as illumos's library actions */
	DT_A_PRINTA,
	DT_A_CLEAR,
	DT_A_TRUNC,
	DT_A_NORMALIZE,
	DT_A_DENORMALIZE,
	DT_A_SYSTEM,	/* a command, formatted as printf, run with /bin/sh */
	DT_A_FREOPEN,	/* the output reopened on the file named ("": restored) */
	DT_A_FTRUNCATE, /* the output file truncated */
	DT_A_SETOPT,	/* an option set: its name, its value if given */
	DT_A_COMMIT,	/* a_rec: the speculation's tag, or 0 (nothing to commit) */
	DT_A_DISCARD,	/* the same, for discard() */
} dt_akind_t;

typedef struct dt_act {
	dt_akind_t a_kind;
	const char *a_fmt; /* printf, printa (NULL: printa without a format) */
	int a_rec, a_nrecs;
	const uint32_t *a_aggs; /* printa...: the aggregations' ids */
	int a_naggs;
	const dt_type_t *a_type; /* print(): the pointee's type */
} dt_act_t;

/* A clause as compiled: the same for every probe it enables. */
typedef struct dt_stmt {
	dt_node_t *st_clause;
	uint32_t st_size;    /* record size, EPID included */
	bool st_data;	     /* records data (else only its EPID) */
	bool st_agg;	     /* aggregates */
	bool st_destructive; /* raise, stop, system...: needs -w */
	bool st_spec;	     /* speculate(): the record goes to a speculation (tag 0: nowhere) */
	dt_rec_t *st_recs;
	int st_nrecs;
	size_t st_reccap;
	dt_act_t *st_acts;
	int st_nacts;
	size_t st_actcap;
	dt_frag_t st_code;
	bool st_subrs[DT_SUBR_N]; /* the subprograms it calls */
} dt_stmt_t;

/*
 * A dynamic struct or union variable (self->s.m, a[k].m): a hash map of
 * its own, keyed as the other dynamic variables, so that its size does not
 * shrink their table.  Its elements are made by the first store to a
 * member and never freed, as in DTrace.
 */
typedef struct dt_souvar {
	uint32_t sv_id, sv_size;
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

/* An aggregation as compiled; its map and what the consumer keeps of it are the run's (dt_run.h). */
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

/*
 * What the programs of a handle share, made by their compiles and read
 * when they load: variables (a global or a self-> variable named in two
 * programs is one variable), aggregations, the sizes each region of the
 * scratch and state values needs, the prologue and the subprograms.
 */
typedef struct dt_pstate {
	dt_arena_t ps_arena;
	dt_strset_t *ps_vars; /* variable name -> its place (dt_cg.c); "@name" -> its dt_agg_t */
	int ps_nvarids;
	dt_souvar_t *ps_souvars;
	uint32_t ps_nsouvars;
	dt_agg_t **ps_aggs; /* by id - 1 */
	uint32_t ps_naggs;
	size_t ps_aggcap;
	uint32_t ps_aggzero; /* the largest aggregation value: dt_zero's size per CPU */
	uint32_t ps_strsize; /* fixed by the first compile */
	uint32_t ps_recmax;  /* the largest record */
	uint32_t ps_thissize, ps_tmpsize, ps_keysize, ps_valsize;
	uint32_t ps_scratchsize; /* alloca()'s: the alloca region is used when not 0 */
	uint32_t ps_sousize;	 /* the largest dynamic struct variable: dt_zero holds as many */
	uint32_t ps_specsites;	 /* speculation() calls: each walks nspec slots (dt_cg.c) */
	uint32_t ps_state;	 /* the state value's size: header and globals */
	bool ps_use_errno;	 /* a clause reads errno */
	dt_frag_t ps_prologue;	 /* finds the maps, checks the activity, DT_PX_CLAUSES */
	dt_frag_t ps_errno;	 /* the errno watcher (a sys_exit raw tracepoint's), if used */
	dt_frag_t ps_subrs[DT_SUBR_N];
	dt_frag_t ps_work; /* where code generation builds a clause, reused (dt_cg.c) */
	bool ps_ready;
	/* what the compile in progress added, undone if it fails (dt_pstate_undo) */
	struct dt_pstate_mark {
		bool pm_open;
		uint32_t pm_nsouvars, pm_naggs, pm_aggzero, pm_strsize, pm_recmax;
		uint32_t pm_thissize, pm_tmpsize, pm_keysize, pm_valsize, pm_sousize, pm_state;
		uint32_t pm_scratchsize, pm_specsites;
		int pm_nvarids;
		bool pm_use_errno, pm_ready;
		const char **pm_keys; /* names it entered in ps_vars */
		size_t pm_nkeys, pm_keycap;
	} ps_mark;
} dt_pstate_t;

/* The largest scratch or state value BPF gives (a per-CPU array's value). */
#define DT_VALUE_MAX 32768

/*
 * Where each scratch region starts (the record at 0, then the others in
 * dt_region_t's order) and how large the scratch and state values are,
 * for what the compiles so far need.
 */
void dt_pstate_layout(const dt_pstate_t *, uint32_t base[DT_SR_N], uint32_t *scratch,
		      uint32_t *state);

/* Enter a variable's or an aggregation's (@name) place under a copy of key: 0, or -1. */
int dt_pstate_insert(dt_pstate_t *, const char *key, const void *val);
/*
 * A compile that generates code brackets what it adds to the shared state:
 * begin before, then end (keep it) or undo (a compile error: as if the
 * program had never been compiled).
 */
void dt_pstate_begin(dt_pstate_t *);
void dt_pstate_end(dt_pstate_t *);
void dt_pstate_undo(dt_pstate_t *);

/* The handle's shared state, made on first use: NULL with EDT_NOMEM set. */
dt_pstate_t *dt_pstate(dtrace_hdl_t *);
void dt_pstate_free(dtrace_hdl_t *);

/*
 * Generate the clauses of a program just checked (dt_cg.c): 0, or a
 * located diagnostic through dt_cerror (it does not return then).
 */
void dt_cg_program(dt_pcb_t *);

void dt_stmts_free(dtrace_prog_t *);
/* The errno watcher's program (a sys_exit raw tracepoint's), DT_MAP_ERRNO relocated. */
void dt_cg_errno_prog(dt_frag_t *);

/* Print a program's clauses as compiled, for -S (DTRACE_C_DIFV): 0, or -1 (EDT_NOMEM). */
int dt_program_dis(dtrace_hdl_t *, const dtrace_prog_t *, FILE *);

/* A relocation's or pseudo-instruction's name, for -S ("map dt_state", "arg 1"). */
size_t dt_reloc_name(const dtrace_hdl_t *, const dt_reloc_t *, char *buf, size_t len);
size_t dt_pseudo_name(const dt_pseudo_t *, char *buf, size_t len);

#endif /* DT_PROGRAM_H */
