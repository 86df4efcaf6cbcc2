/*
 * dt_run.h -- an enabled program: the compiled clauses (dt_program.h)
 * matched to probes, linked (dt_link.c), loaded and attached (dt_load.c),
 * and read by the consumer (dt_consume.c, dt_agg.c).  The record ABI and
 * the maps are dt_program.h's.
 */
#ifndef DT_RUN_H
#define DT_RUN_H

#include "dt_provider.h"
#include "ks.h"

typedef struct dt_ecb {
	uint32_t e_epid;
	size_t e_probe; /* index in the handle's probe table; DT_ECB_FREE: none */
	dt_stmt_t *e_stmt;
	int e_sidx;	    /* e_stmt's index in en_stmts */
	uint8_t e_flowhold; /* -F: 0 not known yet, 1 print, 2 hold (dt_consume.c flow_hold) */
} dt_ecb_t;

/* An EPID whose probe was removed (dt_load.c release_gone): a later ECB reuses it. */
#define DT_ECB_FREE SIZE_MAX

/* Where the scratch regions are and how large the values are, fixed by dtrace_go. */
typedef struct dt_layout {
	uint32_t ly_strsize;
	uint32_t ly_base[DT_SR_N];	 /* each scratch region's offset */
	uint32_t ly_scratch;		 /* scratch value size */
	uint32_t ly_state;		 /* state value size */
	uint32_t ly_keysize, ly_valsize; /* dvars (the scratch key region may be larger) */
	uint32_t ly_group; /* a group's firing probe: its table value's words (dt_link.c) */
} dt_layout_t;

/* One BPF program: a probe's clauses for one argument specification. */
typedef struct dt_bprog {
	size_t bp_probe;
	const char *bp_argspec; /* USDT; NULL otherwise */
	int bp_fd;
	uint32_t bp_attach_type;    /* as loaded: 0, or KS_UPROBE_MULTI (one link for its sites) */
	size_t bp_link0, bp_nlinks; /* its links: ld_links.ln_fds[bp_link0...], once attached */
	uint64_t bp_closed;	    /* released (its object gone): when, CLOCK_MONOTONIC ns */
	uint64_t bp_detseq;	    /* and ks_detach_later's number for its links */
	/* a group's (pv_group): its probes (bp_probe first) and their keys, its table */
	const char *bp_group; /* NULL: the program of bp_probe alone */
	size_t *bp_probes;
	uint32_t *bp_keys;
	size_t bp_nprobes, bp_probecap;
	int bp_tabfd; /* the table map (key -> its value), once made; -1: none */
} dt_bprog_t;

/* The clauses of the programs exec'd, matched to probes: per dtrace_program_exec. */
typedef struct dt_enabling {
	dt_stmt_t **en_stmts; /* the clauses of the programs enabled, in order */
	int en_nstmts;
	dt_ecb_t *en_ecbs; /* EPID n at en_ecbs[n - 1] */
	uint32_t en_necbs;
	uint32_t en_nfree; /* ECBs whose probe was removed (DT_ECB_FREE) */
	size_t en_ecbcap;
	dt_pstate_t *en_ps; /* what the programs share: variables, aggregations, sizes */
	dt_agg_t **en_aggs; /* en_ps's, by id - 1 */
	uint32_t en_naggs;
} dt_enabling_t;

/* What dtrace_go made in the kernel, and where it put things: per go. */
typedef struct dt_loaded {
	bool ld_started; /* dtrace_go() has run */
	dt_layout_t ld_layout;
	int ld_fd[DT_MAP_NFIXED]; /* the maps by dt_mapid_t (-1: none) */
	int *ld_soufds;		  /* dynamic struct variables' maps */
	uint32_t ld_nsoufds;
	int *ld_aggfds;	  /* by id - 1: the map of the aggregation's shape (not owned) */
	int *ld_shapefds; /* those maps: one per shape (key and value sizes) */
	uint32_t ld_nshapes;
	dt_bprog_t *ld_progs;
	size_t ld_nprogs, ld_progcap;
	uint64_t ld_lastgone; /* CLOCK_MONOTONIC ns of the last look for gone objects */
	dt_links_t ld_links;
	int ld_ncpus;
	/*
	 * By CPU, two each (2 * cpu + fast, dt_timer_group): the group its
	 * timers join (ks_timer_group; 0: none yet, else fd + 1), started once
	 * every program is attached (ld_tstarted)
	 */
	int *ld_tgroup;
	bool ld_tstarted;
	size_t ld_ntimers; /* the timers dtrace_go attaches (dt_timer_group) */
	uint64_t ld_nspec; /* -x nspec: speculation slots in dt_spec */
	/*
	 * Kernel structure offsets for ppid, vtimestamp, curpsinfo and
	 * curlwpsinfo, from the kernel's BTF (DT_TOFF_*): -1 where the kernel
	 * has no such member, -2 (in [0]) until first looked up.
	 */
	int ld_off[DT_TOFF_N];
	bool ld_hooked; /* attached to the target's libusdt:::provider-enabled */
	/*
	 * User stacks (ps_use_ustack): the unwind tables' cache, whose maps
	 * the walker reads, and what the walker asked for (dt_unw_req): each
	 * key as last seen, when it was served
	 */
	struct dt_unw *ld_unw;
	struct dt_unwreq {
		uint32_t ur_key;
		uint64_t ur_count, ur_at;
	} * ld_unwreq;
	size_t ld_nunwreq, ld_unwreqcap;
} dt_loaded_t;

/* An aggregation as the consumer reads it: the compiled one, its map, what printa and normalize() left. */
typedef struct dt_aggview {
	const dt_agg_t *av_ag;
	int av_fd;		  /* its shape's map (dt_loaded_t's), shared */
	uint64_t av_normal;	  /* normalize(): 1 unless set */
	bool av_printed;	  /* printed by printa: not again at exit */
	struct dt_asnap *av_snap; /* the last snapshot (dt_agg.c) */
	int av_iter; /* its map's bpf_iter program (the map's first view): 0 none yet, -1 none */
} dt_aggview_t;

/* A speculative record, held by the consumer until its speculation is committed or discarded. */
typedef struct dt_specrec {
	struct dt_specrec *sr_next;
	int sr_cpu;
	uint8_t sr_data[]; /* the record, its clause's st_size bytes */
} dt_specrec_t;

#define DT_SPEC_NCLOSED 4

/*
 * The consumer's side of a speculation slot (dt_consume.c): the records of
 * its generation sb_gen in the order read, the bytes each CPU put there
 * (specsize is per CPU, as illumos's speculative buffers), the last
 * generations closed (a record read after its commit still finds it), and
 * whether the slot waits to be made INACTIVE.
 */
typedef struct dt_specbuf {
	uint32_t sb_gen;
	dt_specrec_t *sb_head, **sb_tail;
	uint64_t *sb_bytes;		     /* per CPU */
	uint32_t sb_closed[DT_SPEC_NCLOSED]; /* generation | DT_SB_* */
	int sb_nextclosed;
	bool sb_clean;	    /* closed: INACTIVE at the next clean */
	uint32_t sb_orphan; /* busy without its record at the last scan: generation + 1 */
} dt_specbuf_t;

#define DT_SB_CLOSED	0x10000u
#define DT_SB_COMMITTED 0x20000u

/*
 * The memory of decoded records (dtrace_consume, dtrace_aggregate_walk,
 * the text and JSON outputs): names, strings and arrays, freed together
 * once the callbacks of a firing or an entry are done.  An arena: one
 * block kept from reset to reset, so a firing costs no allocation once
 * the block exists; a block that fills is kept aside until the reset,
 * an allocation of more than a quarter block has one of its own.
 * rm_failed: an allocation failed (the record is then incomplete).
 */
typedef struct dt_recmem {
	char *rm_block; /* the current block, DT_RECMEM_BLOCK bytes; NULL: none yet */
	size_t rm_used; /* its bytes given */
	void **rm_ptrs; /* full blocks and large allocations, freed at the reset */
	size_t rm_n, rm_cap;
	bool rm_failed;
} dt_recmem_t;

/* The consumer: per work loop, from dt_consume_open on. */
typedef struct dt_drain {
	ks_perfbuf_t *dr_pb;
	bool dr_quiet;
	bool dr_json;	       /* -x oformat=json */
	bool dr_folded;	       /* -x oformat=folded: aggregations a line an entry */
	bool dr_flow;	       /* -F, -x flowindent: dtrace(1)'s flow column */
	int dr_indent;	       /* its indent, for all CPUs (illumos dt_indent) */
	uint32_t dr_last_epid; /* the last record's EPID, 0: none (dt_last_epid) */
	uint8_t *dr_pend;      /* -F: a return probe's record held until the next one */
	size_t dr_pendcap;     /* its buffer's size (kept from record to record) */
	bool dr_pending;       /* it holds a record */
	int dr_pend_cpu;
	bool dr_pend_same; /* the record after it: another clause of its probe */
	FILE *dr_out;
	int dr_status; /* DTRACE_STATUS_* */
	int dr_exitval;
	bool dr_exited, dr_stopped, dr_header_done, dr_end_drained;
	uint64_t *dr_drops_seen; /* dt_drops as last reported, [cpu][kind]; then room for a read */
	int dr_error;		 /* a callback's errno */
	dt_aggview_t *dr_aggs;	 /* by id - 1 */
	uint32_t dr_naggs;
	int dr_saved_fd; /* freopen(): the output's first descriptor, dup'd; -1: none yet */
	/* speculations: when the programs use them */
	dt_specbuf_t *dr_spec; /* by id - 1, ld_nspec of them */
	uint64_t *dr_slots;    /* dt_spec's value, mapped */
	size_t dr_slotsmap;    /* its mapping's size */
	uint64_t dr_specsize, dr_cleanrate;
	uint64_t dr_specdrops, dr_specdrops_seen; /* records beyond specsize */
	uint64_t dr_lastclean, dr_lastscan;	  /* CLOCK_MONOTONIC ns */
	uint64_t *dr_acks; /* libusdt:::provider-enabled: the target's words to acknowledge */
	size_t dr_nacks, dr_ackcap;
	/* dtrace_consume(): the caller's callbacks, while it runs */
	bool dr_consuming;
	dtrace_consume_opts_t dr_cons;
	int dr_cbstop;	    /* 0, or EDT_DIRABORT / EDT_CALLBACK: a callback stopped the calls */
	dt_recmem_t dr_mem; /* the records of the firing being passed or printed */
	FILE *dr_pf;	    /* printf()'s text is formatted here (open_memstream), */
	char *dr_pfbuf;	    /* reused from record to record */
	size_t dr_pflen;
} dt_drain_t;

/* The process traced: -c (created) or -p (grabbed). */
typedef struct dt_target {
	pid_t tg_pid;
	int tg_pidfd;
	bool tg_exited, tg_child, tg_stopped;
	int tg_status;
} dt_target_t;

/* The run: its four parts, each of one lifetime. */
typedef struct dt_run {
	dt_enabling_t r_en;
	dt_loaded_t r_ld;
	dt_drain_t r_dr;
	dt_target_t r_tg;
} dt_run_t;

/*
 * Link the program of one probe (dt_link.c): the prologue, the clauses of
 * its ECBs, for the USDT argument specification argspec (NULL: none), and
 * the subprograms they call.  Returns 0 with the code in out, or -1 with
 * the handle's error set.
 */
int dt_link_probe(dtrace_hdl_t *, dt_run_t *, size_t probe, const char *argspec, dt_frag_t *out);
/*
 * Link the program of a group (bp_group): the provider's guard, the table
 * lookup, then the prologue with each clause that enables one of its
 * probes, run when the table says so for the probe that fired.
 */
int dt_link_group(dtrace_hdl_t *, dt_run_t *, const dt_bprog_t *, dt_frag_t *out);
/*
 * A group's table value for one probe: its key, its probe id, then the
 * EPID of each statement of the enabling (en_stmts' order; 0: the clause
 * does not enable this probe), then the probe's four names (DT_GENT_*).
 */
#define DT_GENT_KEY	0
#define DT_GENT_PRID	4
#define DT_GENT_EPID(s) (8 + 4 * (uint32_t)(s))
/* where name which (0 provider, 1 module, 2 function, 3 name) is, for n statements */
uint32_t dt_gent_name(int nstmts, int which);
/* the size of a value, for n statements */
uint32_t dt_gent_size(int nstmts);
/* The errno watcher's program. */
int dt_link_errno(dtrace_hdl_t *, dt_run_t *, dt_frag_t *out);
/* task_struct offsets from the kernel's BTF, read when a program first needs them. */
void dt_task_offsets(dt_run_t *);
/* Open the output buffers (dt_consume.c). */
int dt_consume_open(dtrace_hdl_t *, dt_run_t *);
/* Free the speculative records the consumer holds (dt_consume.c). */
void dt_consume_free(dt_run_t *);
/* The records of dtrace_consume and dtrace_aggregate_walk (dt_consume.c). */
/* An options structure a caller passed: 0, or -1 with EDT_BADARG (func: the function's name). */
int dt_opts_valid(dtrace_hdl_t *, const void *opts, size_t ours, const char *func);
void *dt_recmem_alloc(dt_recmem_t *, size_t); /* zeroed; NULL (rm_failed set) on ENOMEM */
void dt_recmem_reset(dt_recmem_t *);	      /* frees what was allocated */
void dt_recmem_fini(dt_recmem_t *);
/* The value rec holds in data, decoded into *out (action: its dtr_action). */
void dt_rec_decode(dtrace_hdl_t *, const dt_rec_t *rec, const uint8_t *data, const char *action,
		   dtrace_record_t *out, dt_recmem_t *mem);
/* The consumer's printing (dt_consume.c), shared with dt_agg.c. */
/* A uaddr()/ufunc()/usym()/umod() record as its name ("libc.so.6`malloc"). */
void dt_usym_rec_str(dtrace_hdl_t *, const dt_rec_t *, const uint8_t *data, char *buf, size_t len);
/* The symbol of a DT_RK_USYM record's address, the kernel's for sym(), func(), mod(). */
int dt_sym_rec_lookup(dtrace_hdl_t *, int kind, uint64_t pid, uint64_t pc, dt_usym_t *u);
/* A stack's frames: illumos's _dtrace_stkindent, the stackindent option's default */
#define DT_STACKINDENT 14
/* A frame's symbol (pid 0: the kernel's; ret: a return address): 0, or -1 unknown. */
int dt_frame_lookup(dtrace_hdl_t *dtp, pid_t pid, uint64_t pc, bool ret, dt_usym_t *u);
void dt_frame_str(dtrace_hdl_t *dtp, pid_t pid, uint64_t pc, bool ret, char *buf, size_t len);
void dt_print_stack(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data,
		    const char *fmt, int indent);
/* A decoded value as trace() prints it, and a record decoded then printed so (keys). */
void dt_print_rec(dtrace_hdl_t *dtp, FILE *fp, const dtrace_record_t *r, bool quiet, int strwidth);
void dt_print_datum(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data,
		    bool quiet, int strwidth);
/* print(p)'s record: the pointer and the value it points to, by type (Oracle's format) */
void dt_print_typed(FILE *fp, const dtrace_record_t *r, const dt_type_t *type);
void dt_print_printf(dtrace_hdl_t *dtp, FILE *fp, const char *fmt, const dt_rec_t *recs, int nrecs,
		     const uint8_t *data);
/* -x oformat=json (dt_json.c): one object per line. */
void dt_json_bytes(FILE *fp, const char *s, size_t n);
void dt_json_str(FILE *fp, const char *s);
/* A decoded value (trace(), tracemem(), keys), and a record decoded then written so. */
void dt_json_value(FILE *fp, const dtrace_record_t *r);
void dt_json_datum(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data);
bool dt_json_has_data(const dt_stmt_t *st);
/* A firing's object: its probe, then each printing action's record (type: print()'s), then the end. */
void dt_json_probe_begin(FILE *fp, const dtrace_probedata_t *pd);
void dt_json_data(FILE *fp, const dtrace_record_t *r, const dt_type_t *type, bool first);
void dt_json_probe_end(FILE *fp);
/* An aggregation entry, as a dtrace_aggwalk_f (arg: the FILE). */
int dt_json_aggdata(const dtrace_aggdata_t *a, void *arg);
void dt_json_drop(FILE *fp, const char *kind, int cpu, uint64_t n);
void dt_json_error(FILE *fp, const dt_errrec_t *er, const dtrace_probedesc_t *pd,
		   const char *fault);
/* Aggregations in the consumer (dt_agg.c). */
int dt_agg_printa(dtrace_hdl_t *, FILE *, const dt_act_t *, const dt_rec_t *, const uint8_t *);
int dt_agg_printa_fmt(dtrace_hdl_t *, FILE *, const dt_act_t *);
int dt_agg_libact(dtrace_hdl_t *, const dt_act_t *, const dt_rec_t *, const uint8_t *);
void dt_agg_snap_free(dt_aggview_t *);
/* The handle's run, made on first use (dt_load.c); NULL: no memory. */
dt_run_t *dt_run_get(dtrace_hdl_t *);
/* Enable clauses for the target's probes that appeared since the last look. */
int dt_load_rescan(dtrace_hdl_t *, dt_run_t *);
/*
 * The user stack walker's requests for unwind tables, served (tables
 * loaded for the processes that asked); and the stacks it walked by frame
 * pointers alone so far, for want of tables.
 */
int dt_load_unwind(dtrace_hdl_t *, dt_run_t *);
uint64_t dt_load_unwind_fponly(dtrace_hdl_t *, dt_run_t *);
void dt_proc_release(dt_run_t *);     /* kill a created target, continue a grabbed one */
int dt_load_link_all(dtrace_hdl_t *); /* link every program, no kernel */
/*
 * The record the program on the target's libusdt:::provider-enabled sends
 * (dt_load.c): this EPID, 0, then the address of the word by which the
 * target waits for our acknowledgement.
 */
#define DT_EPID_HOOK UINT32_MAX
/* A new provider was announced: rescan, attach, acknowledge each announcement. */
int dt_load_ack(dtrace_hdl_t *, dt_run_t *);
/*
 * Load, and close, what dtrace_go would load, and every clause alone on a
 * stand-in BEGIN, profile and USDT probe (each kind of argument operand),
 * and a tp_btf one on sched_switch where the kernel has tp_btf (arguments
 * that the kernel types as pointers): what -e accepted must load.  After dtrace_program_exec; nothing is
 * attached.  0, or -1 with the handle's error naming the clause.
 */
int dt_load_verify(dtrace_hdl_t *);

#endif /* DT_RUN_H */
