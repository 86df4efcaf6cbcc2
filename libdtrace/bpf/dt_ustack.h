/*
 * dt_ustack.h -- the unwind tables the user stack walker (dt_ustack.c)
 * reads, as the consumer fills them (docs/internals.md; the design in
 * issue 18): the same layouts for the BPF body and for the host.
 *
 * dt_unw_rows, an ARRAY of rows: each file's .eh_frame, one row per
 * address range where the rules change, sorted by pc within the file's
 * range [lo, hi).  A row holds from its pc to the next row's.
 *
 * dt_unw_procs, a HASH from a process ID (tgid, u32) to its mappings:
 * the executable ones, sorted by start, each with its file's rows.  pc in
 * [start, end) is file address pc - bias; lo == hi: no table.
 *
 * Plain C types only: no header is included, so both compilers read it.
 */
#ifndef DT_USTACK_H
#define DT_USTACK_H

/* the rule for the CFA (the caller's rsp) at a row's addresses */
enum dt_unw_cfa {
	DT_UNW_END,    /* the walk stops here: a gap, or no return address (_start) */
	DT_UNW_RSP,    /* rsp + cfa_off */
	DT_UNW_RBP,    /* rbp + cfa_off */
	DT_UNW_PLT1,   /* .plt: rsp + 8, + 8 if (pc & 15) >= 11 */
	DT_UNW_PLT2,   /* .plt.sec and the like: the same with >= 10 */
	DT_UNW_SIGNAL, /* a signal trampoline: rsp points to the ucontext */
	DT_UNW_FP,     /* no rule: a frame pointer step ([rbp], [rbp + 8]) */
};

/* where the caller's rbp is */
enum dt_unw_rbp {
	DT_UNW_SAME,	   /* unchanged */
	DT_UNW_AT_CFA_OFF, /* saved at cfa + rbp_off */
};

typedef struct dt_unw_row {
	unsigned int ur_pc; /* file address of its first byte (text is under 4 GB) */
	int ur_cfa_off;
	short ur_rbp_off;
	unsigned char ur_cfa; /* enum dt_unw_cfa */
	unsigned char ur_rbp; /* enum dt_unw_rbp */
	unsigned int ur_pad;
} dt_unw_row_t;

#define DT_UNW_MAXMAPS 64 /* mappings of a process with tables */

typedef struct dt_unw_map {
	unsigned long long um_start, um_end; /* its addresses in the process */
	unsigned long long um_bias;	     /* address - file address */
	unsigned int um_lo, um_hi;	     /* its rows in dt_unw_rows */
} dt_unw_map_t;

typedef struct dt_unw_proc {
	unsigned int up_n; /* mappings, DT_UNW_MAXMAPS at most */
	unsigned int up_pad;
	dt_unw_map_t up_maps[DT_UNW_MAXMAPS];
} dt_unw_proc_t;

/*
 * A signal frame: rsp points to the ucontext_t, whose uc_mcontext.gregs
 * (at 40) hold the interrupted registers: REG_RBP 10, REG_RSP 15, REG_RIP 16.
 */
#define DT_UNW_SIG_RBP (40 + 8 * 10)
#define DT_UNW_SIG_RSP (40 + 8 * 15)
#define DT_UNW_SIG_RIP (40 + 8 * 16)

/*
 * dt_ustack()'s result: the frames it stored, and these flags: the
 * process has no tables (a frame pointer walk: the consumer should build
 * them), or a PC was in none of its mappings (they changed: dlopen, exec).
 */
#define DT_USTACK_NFRAMES(r) ((r)&0xffffffffull)
#define DT_UNW_REQ_REMAP     0x80000000u /* dt_unw_req: a tgid's mappings changed */
#define DT_USTACK_NOPROC     (1ull << 32)
#define DT_USTACK_UNMAPPED   (1ull << 33)

#endif /* DT_USTACK_H */
