/*
 * dt_ustack.c -- the user stack walker: the return addresses of the
 * current thread's user stack from its registers, by the .eh_frame rules
 * the consumer loads into dt_unw_rows and dt_unw_procs (dt_ustack.h),
 * with a frame pointer step where a PC has no table.
 *
 * One bpf_loop() iteration a frame.  For each: the mapping that holds the
 * PC (a binary search of the process's sorted mappings), its file's row
 * (a binary search of the rows), then the caller's registers by the row's
 * rule.  The first PC is looked up as it is; later ones are return
 * addresses, looked up at ra - 1 (a call at a function's very end, to a
 * noreturn function, is its function's) and stored as they are.
 */
#include "dt_bpf_env.h"
#include "dt_ustack.h"

extern char dt_unw_rows[], dt_unw_procs[], dt_unw_req[];

u64 dt_ustack(u64 *dst, u64 n, u64 pc, u64 sp, u64 bp);

typedef struct walk {
	u64 *w_dst;
	u64 w_n;
	u64 w_pc, w_sp, w_bp; /* the frame's registers */
	u64 w_res;	      /* frames stored, DT_USTACK_* flags */
	const dt_unw_proc_t *w_proc;
	u32 w_exact; /* look w_pc up as it is: the first frame, or one a signal interrupted */
	u32 w_done;
} walk_t;

/*
 * The mapping of p holding pc into m: 0, or -1 (none).  The search has
 * no branch: its index is an offset into p, which the verifier follows
 * exactly, so a branch a halving made it check the frame's rest once per
 * outcome (128 times: 353,960 instructions processed).  Copied out, the
 * mapping is plain numbers.  Addresses are user ones, under 2^63: pc -
 * start is negative when pc is below.
 */
static inline int find_map(const dt_unw_proc_t *p, u64 pc, dt_unw_map_t *m)
{
	u32 n = p->up_n, base = 0;

	if (n == 0)
		return -1;
	if (n > DT_UNW_MAXMAPS)
		n = DT_UNW_MAXMAPS;
	/* base: the last mapping starting at or before pc (or the first) */
	for (int k = 0; k < 7; k++) {
		u32 half = n / 2;
		u64 start = p->up_maps[(base + half) & (DT_UNW_MAXMAPS - 1)].um_start;

		base += (u32)(((pc - start) >> 63) ^ 1) * half;
		n -= half;
	}
	if (bpf_probe_read_kernel(m, sizeof(*m), &p->up_maps[base & (DT_UNW_MAXMAPS - 1)]) != 0)
		return -1;
	return m->um_start <= pc && pc < m->um_end ? 0 : -1;
}

/* the row of file address rel among m's, or NULL (none: before its first) */
static inline const dt_unw_row_t *find_row(const dt_unw_map_t *m, u64 rel)
{
	u32 lo = m->um_lo, hi = m->um_hi, at;

	/* lo: the first row starting after rel; 24 halvings cover 16M rows */
	for (int k = 0; k < 24 && lo < hi; k++) {
		u32 mid = lo + (hi - lo) / 2;
		const dt_unw_row_t *r = dt_map_lookup(dt_unw_rows, &mid);

		if (r == 0)
			return 0;
		if (r->ur_pc <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < hi || lo == m->um_lo)
		return 0;
	at = lo - 1;
	return dt_map_lookup(dt_unw_rows, &at);
}

/* one frame: store its PC, then step to its caller's registers */
static long ustack_frame(u64 i, void *c)
{
	walk_t *w = c;
	const dt_unw_row_t *r = 0;
	dt_unw_map_t m;
	u64 pc = w->w_pc, sp = w->w_sp, bp = w->w_bp, cfa = 0, ra = 0, nbp = bp;
	int kind = DT_UNW_FP;

	if (i >= w->w_n)
		return 1;
	if (w->w_done) {
		if (w->w_dst == 0) /* counting: the count is all */
			return 1;
		w->w_dst[i] = 0;
		return 0;
	}
	if (w->w_dst != 0)
		w->w_dst[i] = pc;
	w->w_res = (w->w_res & ~0xffffffffull) | (i + 1);

	if (w->w_proc != 0) {
		if (find_map(w->w_proc, pc, &m) != 0)
			w->w_res |= DT_USTACK_UNMAPPED;
		else
			r = find_row(&m, pc - m.um_bias - (w->w_exact ? 0 : 1));
		if (r != 0)
			kind = r->ur_cfa;
	}
	w->w_exact = 0;

	switch (kind) {
	case DT_UNW_RSP: cfa = sp + (s64)r->ur_cfa_off; break;
	case DT_UNW_RBP: cfa = bp + (s64)r->ur_cfa_off; break;
	case DT_UNW_PLT1: cfa = sp + ((pc & 15) >= 11 ? 16 : 8); break;
	case DT_UNW_PLT2: cfa = sp + ((pc & 15) >= 10 ? 16 : 8); break;
	case DT_UNW_SIGNAL:
		if (bpf_probe_read_user(&ra, 8, (void *)(sp + DT_UNW_SIG_RIP)) != 0 ||
		    bpf_probe_read_user(&cfa, 8, (void *)(sp + DT_UNW_SIG_RSP)) != 0 ||
		    bpf_probe_read_user(&nbp, 8, (void *)(sp + DT_UNW_SIG_RBP)) != 0)
			ra = 0;
		w->w_exact = 1; /* an interrupted PC, not a return address */
		break;
	case DT_UNW_FP:
		/* [rbp] is the caller's rbp, [rbp + 8] the return address */
		if (bp == 0 || bpf_probe_read_user(&nbp, 8, (void *)bp) != 0 ||
		    bpf_probe_read_user(&ra, 8, (void *)(bp + 8)) != 0)
			ra = 0;
		cfa = bp + 16;
		break;
	default: break; /* DT_UNW_END, or a rule this walker does not know */
	}
	if (kind >= DT_UNW_RSP && kind <= DT_UNW_PLT2) {
		if (bpf_probe_read_user(&ra, 8, (void *)(cfa - 8)) != 0)
			ra = 0;
		else if (r->ur_rbp == DT_UNW_AT_CFA_OFF &&
			 bpf_probe_read_user(&nbp, 8, (void *)(cfa + (s64)r->ur_rbp_off)) != 0)
			ra = 0;
	}
	/* a caller's frame is above its callee's, but where a signal switched stacks */
	if (ra == 0 || (kind != DT_UNW_SIGNAL && cfa <= sp)) {
		w->w_done = 1;
		return 0;
	}
	w->w_pc = ra;
	w->w_sp = cfa;
	w->w_bp = nbp;
	return 0;
}

/*
 * Ask the consumer for tables (dt_unw_req): the stacks a process walked
 * without them are counted under its tgid (the consumer loads its tables
 * at its next look), those with a PC in none of its mappings under tgid |
 * DT_UNW_REQ_REMAP (it reads them again).  The consumer made key 0, which
 * counts what a full map could not take.
 */
static inline void request(u32 key)
{
	u64 one = 1, *c = dt_map_lookup(dt_unw_req, &key);

	if (c == 0) {
		if (dt_map_update(dt_unw_req, &key, &one, 1 /* BPF_NOEXIST */) == 0)
			return;
		c = dt_map_lookup(dt_unw_req, &key); /* made meanwhile, or the map is full */
		if (c == 0) {
			key = 0;
			c = dt_map_lookup(dt_unw_req, &key);
		}
		if (c == 0)
			return;
	}
	__sync_fetch_and_add(c, 1);
}

/*
 * The current thread's user stack from its registers pc, sp and bp: n
 * PCs into dst (n * 8 bytes of map memory), innermost first, the rest
 * zero; pc 0: none (the caller found no user state).  dst NULL: the
 * frames are counted (up to n), not stored (ustackdepth).  Returns the frames stored and the DT_USTACK_* flags.
 */
DT_FN u64 dt_ustack(u64 *dst, u64 n, u64 pc, u64 sp, u64 bp)
{
	u32 tgid = (u32)(bpf_get_current_pid_tgid() >> 32);
	walk_t w = { dst, n, pc, sp, bp, 0, 0, 1, 0 };

	if (pc == 0) { /* no user state (a kernel thread): no frames, nothing to ask for */
		w.w_done = 1;
		bpf_loop((u32)n, ustack_frame, &w, 0);
		return 0;
	}
	w.w_proc = dt_map_lookup(dt_unw_procs, &tgid);
	if (w.w_proc == 0)
		w.w_res = DT_USTACK_NOPROC;
	bpf_loop((u32)n, ustack_frame, &w, 0);
	if (w.w_res & DT_USTACK_NOPROC)
		request(tgid);
	else if (w.w_res & DT_USTACK_UNMAPPED)
		request(tgid | DT_UNW_REQ_REMAP);
	return w.w_res;
}
