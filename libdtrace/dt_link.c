/*
 * dt_link.c -- a probe's BPF program from the compiled fragments: the
 * prologue, each clause that enables the probe, the subprograms they
 * call.  Relocations take the loaded program's values (map descriptors,
 * where the scratch regions are, EPIDs, kernel structure offsets); the
 * pseudo-instructions become the probe's own code (its arguments, its
 * names) and the ERROR clauses of a fault block; jumps are resolved last.
 * No code is generated here that the compiler could have generated.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_provider.h"
#include "dt_run.h"

typedef struct dt_link {
	dtrace_hdl_t *lk_dtp;
	dt_run_t *lk_run;
	size_t lk_probe;
	dt_frag_t *lk_out;
	dt_stapsdt_arg_t lk_args[DT_MAXPROBEARGS]; /* a USDT probe's, from its note */
	int lk_nargs;
	const char *lk_argspec; /* as the provider's pv_programs named it (or NULL) */
	int lk_sub[DT_SUBR_N];	/* the subprograms' labels in lk_out */
	/*
	 * Each fragment's labels in the order of their places, one buffer per
	 * depth of link_frag (the prologue, a clause, an ERROR clause in its
	 * fault block): freed by link_program, also after a link_error.
	 */
	int *lk_order[4];
	size_t lk_ordcap[4];
	int lk_depth;
	bool lk_used[DT_SUBR_N];
	const dt_bprog_t *lk_group; /* a group's program: its probes and table */
	bool *lk_member;	    /* by probe index: one of the group's */
	const dt_ecb_t **lk_gecb;   /* by statement: an ECB of it on one of the group's probes */
	int lk_gstmt;		    /* the statement of the clause being linked in it, or -1 */
	jmp_buf lk_jmp;
} dt_link_t;

static _Noreturn void link_error(dt_link_t *lk, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void link_error(dt_link_t *lk, int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dt_set_errmsg(lk->lk_dtp, err, "%s", msg);
	longjmp(lk->lk_jmp, 1);
}

static int map_fd(dt_link_t *lk, uint32_t map)
{
	dt_run_t *r = lk->lk_run;

	if (map < DT_MAP_NFIXED)
		return r->r_ld.ld_fd[map];
	/* a compiled map that is not made (dt_load_link_all: no kernel) links as -1 */
	if (map >= DT_MAP_SOU(0) && map - DT_MAP_SOU(0) < r->r_en.en_ps->ps_nsouvars)
		return map - DT_MAP_SOU(0) < r->r_ld.ld_nsoufds
			   ? r->r_ld.ld_soufds[map - DT_MAP_SOU(0)]
			   : -1;
	/* an aggregation: its shape's map (dt_load.c, agg_maps) */
	if (map >= DT_MAP_AGG(1) && map - DT_MAP_AGG(0) <= r->r_en.en_naggs)
		return r->r_ld.ld_aggfds != NULL ? r->r_ld.ld_aggfds[map - DT_MAP_AGG(1)] : -1;
	link_error(lk, EDT_ENABLING, "internal error: a program names an unknown map");
}

/* Put into a copy of an instruction what its relocation says. */
static void relocate(dt_link_t *lk, struct bpf_insn *in, const dt_reloc_t *rl, const dt_ecb_t *ecb,
		     bool in_error)
{
	dt_run_t *r = lk->lk_run;
	dtrace_hdl_t *dtp = lk->lk_dtp;
	int cls = BPF_CLASS(in->code);
	long v;

	switch (rl->rl_kind) {
	case DT_RL_MAP:
		in->src_reg = BPF_PSEUDO_MAP_FD;
		in->imm = map_fd(lk, rl->rl_arg);
		return;
	case DT_RL_SCR:
		/* an ERROR clause's fault keeps the error record its arguments come from */
		v = r->r_ld.ld_layout.ly_base[rl->rl_arg == DT_SR_ERR && in_error ? DT_SR_ERR2
					      : rl->rl_arg < DT_SR_N		  ? rl->rl_arg
										  : 0];
		if (cls == BPF_LDX || cls == BPF_STX || cls == BPF_ST) {
			if (in->off + v > INT16_MAX)
				link_error(lk, EDT_ENABLING, "the scratch value is too large");
			in->off = (int16_t)(in->off + v);
		} else {
			in->imm = (int32_t)(in->imm + v);
		}
		return;
	case DT_RL_EPID: in->imm = ecb != NULL ? (int32_t)ecb->e_epid : 0; return;
	case DT_RL_PRID:
		in->imm =
		    (int32_t)dtp->dt_probes[ecb != NULL ? ecb->e_probe : lk->lk_probe].dtpd_id;
		return;
	case DT_RL_NCPUS: in->imm = r->r_ld.ld_ncpus; return;
	case DT_RL_NSPEC: in->imm = (int32_t)r->r_ld.ld_nspec; return;
	case DT_RL_TOFF:
		if (r->r_ld.ld_off[0] ==
		    -2) /* loading the kernel's BTF takes time: only when needed */
			dt_task_offsets(r);
		if (rl->rl_arg >= DT_TOFF_N || r->r_ld.ld_off[rl->rl_arg] < 0)
			link_error(lk, EDT_ENABLING,
				   "the program reads the current task, which needs the kernel's "
				   "BTF: it is not available");
		in->imm += r->r_ld.ld_off[rl->rl_arg];
		return;
	case DT_RL_ACTIVITY: {
		const dt_provimpl_t *pv = dt_probe_prov(dtp, lk->lk_probe);

		in->imm = (int32_t)(pv->pv_activity != NULL
					? pv->pv_activity(&dtp->dt_pinfo[lk->lk_probe])
					: DT_ACTIVITY_ACTIVE);
		return;
	}
	case DT_RL_CALL:
	case DT_RL_FUNC: return; /* a jump to the subprogram's label: the caller's */
	}
}

static void link_frag(dt_link_t *lk, const dt_frag_t *fr, const dt_ecb_t *ecb, bool in_error);

/* ---------------------------------------------------------------- arguments */

/* r0 = argument i of an ERROR probe: arg1 EPID, arg2 action, arg3 offset, arg4 fault, arg5 address */
static void error_arg(dt_link_t *lk, int i)
{
	static const int fields[] = { -1,
				      offsetof(dt_errrec_t, er_epid),
				      offsetof(dt_errrec_t, er_action),
				      offsetof(dt_errrec_t, er_pc),
				      offsetof(dt_errrec_t, er_fault),
				      offsetof(dt_errrec_t, er_addr) };
	uint32_t e = lk->lk_run->r_ld.ld_layout.ly_base[DT_SR_ERR];

	if (i < 1 || i > 5)
		dt_frag_emit(lk->lk_out, KS_MOV64_IMM(BPF_REG_0, 0));
	else
		dt_frag_emit(lk->lk_out, KS_LDX_MEM(i <= 3 ? BPF_W : BPF_DW, BPF_REG_0, BPF_REG_8,
						    (int16_t)(e + (uint32_t)fields[i])));
}

/* ---------------------------------------------------------------- expansions */

/* r0 = a temporary holding the probe's name (which: provider, module, function, name). */
static void probe_string(dt_link_t *lk, const dt_ecb_t *ecb, int which, uint32_t off)
{
	const dtrace_probedesc_t *pd = &lk->lk_dtp->dt_probes[ecb->e_probe];
	const char *s = which == 0   ? pd->dtpd_provider
			: which == 1 ? pd->dtpd_mod
			: which == 2 ? pd->dtpd_func
				     : pd->dtpd_name;

	dt_frag_string(lk->lk_out, off, s, strlen(s), lk->lk_run->r_ld.ld_layout.ly_strsize);
}

/* ---------------------------------------------------------------- groups */

uint32_t dt_gent_name(int nstmts, int which)
{
	static const uint32_t start[] = { 0, DTRACE_PROVNAMELEN,
					  DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN,
					  DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN +
					      DTRACE_FUNCNAMELEN };

	return DT_GENT_EPID(nstmts) + start[which];
}

uint32_t dt_gent_size(int nstmts)
{
	return (dt_gent_name(nstmts, 3) + DTRACE_NAMELEN + 7) & ~7u;
}

/* An ECB of statement s on a probe of the group, or NULL. */
static const dt_ecb_t *group_ecb(const dt_link_t *lk, int s)
{
	return lk->lk_gecb[s];
}

/*
 * An EPID or probe id in a group's clause: the firing probe's, from its
 * table words in scratch (put there by the group's DT_PX_CLAUSES).  A
 * store of the constant becomes a load and a store through r1 (free where
 * the clauses store it: at their start and in a fault block), a move
 * becomes a load.
 */
static void group_value(dt_link_t *lk, struct bpf_insn in, dt_rlkind_t kind)
{
	dt_frag_t *o = lk->lk_out;
	uint32_t at = lk->lk_run->r_ld.ld_layout.ly_group +
		      (kind == DT_RL_EPID ? DT_GENT_EPID(lk->lk_gstmt) : DT_GENT_PRID);

	if (BPF_CLASS(in.code) == BPF_ST && in.dst_reg != BPF_REG_1) {
		dt_frag_emit(o, KS_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_8, (int16_t)at));
		dt_frag_emit(o, KS_STX_MEM(BPF_SIZE(in.code), in.dst_reg, BPF_REG_1, in.off));
	} else if (in.code == (BPF_ALU64 | BPF_MOV | BPF_K)) {
		dt_frag_emit(o, KS_LDX_MEM(BPF_W, in.dst_reg, BPF_REG_8, (int16_t)at));
	} else {
		link_error(lk, EDT_ENABLING,
			   "internal error: a group's clause uses its EPID in an unknown way");
	}
}

/*
 * r0 = a temporary holding the firing probe's name which, in a group whose
 * probes differ in it: copied from the group's table value of the probe.
 */
static void group_string(dt_link_t *lk, int which, uint32_t off)
{
	dt_frag_t *o = lk->lk_out;
	const dt_run_t *r = lk->lk_run;
	uint32_t len = which == 0   ? DTRACE_PROVNAMELEN
		       : which == 1 ? DTRACE_MODNAMELEN
		       : which == 2 ? DTRACE_FUNCNAMELEN
				    : DTRACE_NAMELEN;
	int found = dt_frag_label(o), done = dt_frag_label(o);
	struct bpf_insn map[2] = { KS_LD_MAP_FD(BPF_REG_1, lk->lk_group->bp_tabfd) };

	if (len > r->r_ld.ld_layout.ly_strsize)
		len = r->r_ld.ld_layout.ly_strsize;
	dt_frag_emit(o, KS_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_8,
				   (int16_t)(r->r_ld.ld_layout.ly_group + DT_GENT_KEY)));
	dt_frag_emit(o, KS_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_1, DT_SLOT_TMP));
	dt_frag_emit(o, map[0]);
	dt_frag_emit(o, map[1]);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_10));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_2, DT_SLOT_TMP));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_map_lookup_elem));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0), found);
	dt_frag_emit(o, KS_ST_MEM(BPF_B, BPF_REG_8, (int16_t)off, 0)); /* cannot be: "" */
	dt_frag_reloc(o, DT_RL_SCR, DT_SR_TMP);
	dt_frag_emit_to(o, KS_JA(0), done);
	dt_frag_place(o, found);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_3, BPF_REG_0));
	dt_frag_emit(
	    o, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, (int32_t)dt_gent_name(r->r_en.en_nstmts, which)));
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_8));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_1, (int32_t)off));
	dt_frag_reloc(o, DT_RL_SCR, DT_SR_TMP);
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_2, (int32_t)len));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	dt_frag_place(o, done);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_0, BPF_REG_8));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_0, (int32_t)off));
	dt_frag_reloc(o, DT_RL_SCR, DT_SR_TMP);
}

/*
 * A group's clauses: the firing probe's table words (r9, from the guard)
 * copied to scratch, then each statement that enables one of the group's
 * probes, skipped when its EPID for the firing probe is 0.
 */
static void group_clauses(dt_link_t *lk)
{
	dt_run_t *r = lk->lk_run;
	dt_frag_t *o = lk->lk_out;
	uint32_t g = r->r_ld.ld_layout.ly_group;

	/* the words are reached from r8 by 16-bit offsets (the other regions too: relocate) */
	if (g + DT_GENT_EPID(r->r_en.en_nstmts) > INT16_MAX)
		link_error(lk, EDT_ENABLING,
			   "the scratch value is too large for a program shared by %zu probes "
			   "(lower strsize?)",
			   lk->lk_group->bp_nprobes);
	for (uint32_t w = 0; w < DT_GENT_EPID(r->r_en.en_nstmts); w += 4) {
		if (w >= DT_GENT_EPID(0) && group_ecb(lk, (int)(w - DT_GENT_EPID(0)) / 4) == NULL)
			continue;
		dt_frag_emit(o, KS_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_9, (int16_t)w));
		dt_frag_emit(o, KS_STX_MEM(BPF_W, BPF_REG_8, BPF_REG_1, (int16_t)(g + w)));
	}
	for (int s = 0; s < r->r_en.en_nstmts; s++) {
		const dt_ecb_t *ecb = group_ecb(lk, s);
		int skip;

		if (ecb == NULL)
			continue;
		skip = dt_frag_label(o);
		dt_frag_emit(
		    o, KS_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_8, (int16_t)(g + DT_GENT_EPID(s))));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), skip);
		lk->lk_gstmt = s;
		link_frag(lk, &r->r_en.en_stmts[s]->st_code, ecb, false);
		lk->lk_gstmt = -1;
		dt_frag_place(o, skip);
	}
}

/* Do the group's probes all have the same name which? */
static bool group_same(const dt_link_t *lk, int which)
{
	const dtrace_hdl_t *dtp = lk->lk_dtp;
	const dt_bprog_t *g = lk->lk_group;

	for (size_t k = 1; k < g->bp_nprobes; k++) {
		const dtrace_probedesc_t *a = &dtp->dt_probes[g->bp_probes[0]],
					 *b = &dtp->dt_probes[g->bp_probes[k]];
		const char *x = which == 0   ? a->dtpd_provider
				: which == 1 ? a->dtpd_mod
				: which == 2 ? a->dtpd_func
					     : a->dtpd_name;
		const char *y = which == 0   ? b->dtpd_provider
				: which == 1 ? b->dtpd_mod
				: which == 2 ? b->dtpd_func
					     : b->dtpd_name;

		if (strcmp(x, y) != 0)
			return false;
	}
	return true;
}

static void expand(dt_link_t *lk, const dt_pseudo_t *px, int lbase, const dt_ecb_t *ecb,
		   bool in_error)
{
	dt_run_t *r = lk->lk_run;
	dtrace_hdl_t *dtp = lk->lk_dtp;
	dt_frag_t *o = lk->lk_out;

	switch (px->px_kind) {
	case DT_PX_ARG: {
		dt_argreq_t rq = { dtp, lk->lk_probe,  lk->lk_args,	      lk->lk_nargs,
				   o,	px->px_action, lbase + px->px_lfault, lk->lk_argspec };

		if (in_error)
			error_arg(lk, px->px_arg);
		else if (dt_probe_prov(dtp, lk->lk_probe)->pv_arg(&rq, px->px_arg) != 0)
			longjmp(lk->lk_jmp, 1);
		break;
	}
	case DT_PX_PROBESTR:
		if (lk->lk_group != NULL && lk->lk_gstmt >= 0 && !in_error &&
		    !group_same(lk, px->px_arg))
			group_string(lk, px->px_arg, px->px_off);
		else
			probe_string(lk, ecb, px->px_arg, px->px_off);
		break;
	case DT_PX_KEYZERO:
		for (uint32_t z = 0; z < r->r_ld.ld_layout.ly_keysize; z += 8)
			dt_frag_emit(
			    o, KS_ST_MEM(BPF_DW, BPF_REG_8,
					 (int16_t)(r->r_ld.ld_layout.ly_base[DT_SR_KEY] + z), 0));
		break;
	case DT_PX_DEFOUT:
	case DT_PX_FAULTS: break; /* the caller keeps or skips what follows */
	case DT_PX_ERROR:
		if (in_error)
			break;
		for (uint32_t i = 0; i < r->r_en.en_necbs; i++)
			if (dt_probe_is(dtp, r->r_en.en_ecbs[i].e_probe, DT_PK_ERROR))
				link_frag(lk, &r->r_en.en_ecbs[i].e_stmt->st_code,
					  &r->r_en.en_ecbs[i], true);
		break;
	case DT_PX_CLAUSES:
		/*
		 * strtok()'s saved string lasts one probe firing, as illumos's
		 * (dtms_strtok, in the firing's machine state): its "saved" byte
		 * is cleared first, when a program has the region.
		 */
		if (r->r_en.en_ps->ps_subrsize > 0)
			dt_frag_emit(o, KS_ST_MEM(BPF_B, BPF_REG_8,
						  (int16_t)(r->r_ld.ld_layout.ly_base[DT_SR_SUBR] +
							    r->r_ld.ld_layout.ly_strsize),
						  0));
		if (lk->lk_group != NULL) {
			group_clauses(lk);
			break;
		}
		for (uint32_t i = 0; i < r->r_en.en_necbs; i++)
			if (r->r_en.en_ecbs[i].e_probe == lk->lk_probe)
				link_frag(lk, &r->r_en.en_ecbs[i].e_stmt->st_code,
					  &r->r_en.en_ecbs[i], false);
		break;
	}
}

/* Does a jump from the fixup from on go to label l? */
static bool jumps_to(const dt_frag_t *o, size_t from, int l)
{
	for (size_t i = from; i < o->fr_nfix; i++)
		if (o->fr_fix[i].fx_label == l)
			return true;
	return false;
}

/*
 * Copy a fragment into the program: its labels become new labels of the
 * program, its relocated instructions are copied, its pseudo-instructions
 * expanded.  A DT_PX_DEFOUT drops the rest of the fragment's output code
 * (up to its own label) when the consumer is quiet.
 */
static void link_frag(dt_link_t *lk, const dt_frag_t *fr, const dt_ecb_t *ecb, bool in_error)
{
	dt_frag_t *o = lk->lk_out;
	int lbase = o->fr_nlabels;
	size_t fix0 = o->fr_nfix; /* the jumps this fragment's code makes start here */
	size_t ri = 0, fi = 0, li = 0, nl = (size_t)fr->fr_nlabels;
	int *order;
	size_t *cap;
	size_t skip_to = 0;

	/* the fragment's labels in the program, and in the order of their places */
	for (int l = 0; l < fr->fr_nlabels; l++)
		(void)dt_frag_label(o);
	if (lk->lk_depth >= 4)
		link_error(lk, EDT_ENABLING, "internal error: fragments nest too deeply");
	cap = &lk->lk_ordcap[lk->lk_depth];
	if (*cap < nl || lk->lk_order[lk->lk_depth] == NULL) {
		size_t nc = nl > 2 * *cap ? nl : 2 * *cap;
		int *no = realloc(lk->lk_order[lk->lk_depth], (nc ? nc : 16) * sizeof(int));

		if (no == NULL)
			link_error(lk, EDT_NOMEM, "out of memory linking a program");
		lk->lk_order[lk->lk_depth] = no;
		*cap = nc ? nc : 16;
	}
	order = lk->lk_order[lk->lk_depth++];
	for (size_t l = 0; l < nl; l++)
		order[l] = (int)l;
	for (size_t a = 1; a < nl; a++) { /* insertion sort: placed in nearly this order */
		int x = order[a];
		size_t b = a;

		while (b > 0 && fr->fr_labels[order[b - 1]] > fr->fr_labels[x]) {
			order[b] = order[b - 1];
			b--;
		}
		order[b] = x;
	}
	while (li < nl && fr->fr_labels[order[li]] < 0) /* never placed: never jumped to */
		li++;
	for (size_t i = 0; i < fr->fr_len; i++) {
		struct bpf_insn in = fr->fr_insns[i];
		bool fix = fi < fr->fr_nfix && fr->fr_fix[fi].fx_insn == i;
		int call = -1, gval = -1;

		while (li < nl && fr->fr_labels[order[li]] == (long)i)
			dt_frag_place(o, lbase + order[li++]);
		for (; ri < fr->fr_nrel && fr->fr_rel[ri].rl_insn == i; ri++) {
			relocate(lk, &in, &fr->fr_rel[ri], ecb, in_error);
			if ((fr->fr_rel[ri].rl_kind == DT_RL_EPID ||
			     fr->fr_rel[ri].rl_kind == DT_RL_PRID) &&
			    lk->lk_gstmt >= 0 && !in_error)
				gval = (int)fr->fr_rel[ri].rl_kind;
			if (fr->fr_rel[ri].rl_kind == DT_RL_CALL ||
			    fr->fr_rel[ri].rl_kind == DT_RL_FUNC)
				call = (int)fr->fr_rel[ri].rl_arg;
		}
		if (fix)
			fi++;
		if (i < skip_to)
			continue;
		if (in.code == DT_PSEUDO_CODE) {
			const dt_pseudo_t *px = &fr->fr_px[in.imm];

			if (px->px_kind == DT_PX_DEFOUT && lk->lk_run->r_dr.dr_quiet)
				skip_to = i + 1 + (size_t)px->px_arg;
			else if (px->px_kind == DT_PX_FAULTS &&
				 !jumps_to(o, fix0, lbase + px->px_lfault))
				skip_to = i + 1 + (size_t)px->px_arg;
			else
				expand(lk, px, lbase, ecb, in_error);
			continue;
		}
		if (gval >= 0) {
			group_value(lk, in, (dt_rlkind_t)gval);
		} else if (call >= 0) {
			lk->lk_used[call] = true;
			dt_frag_emit_to(o, in, lk->lk_sub[call]);
		} else if (fix) {
			dt_frag_emit_to(o, in, lbase + fr->fr_fix[fi - 1].fx_label);
		} else {
			dt_frag_emit(o, in);
		}
	}
	while (li < nl)
		dt_frag_place(o, lbase + order[li++]);
	lk->lk_depth--;
	if (o->fr_oom)
		link_error(lk, EDT_NOMEM, "out of memory linking a program");
}

/*
 * Link the fragment top (a prologue and the clauses it takes, or a whole
 * program) for probe p (or none), then the subprograms it calls; apply
 * what expansions left to relocate; resolve the jumps.
 */
/*
 * A group's start: the provider's guard leaves the firing probe's key in
 * r0, its table value (none, or a probe id of 0: no probe enabled there:
 * exit) goes to r9, which the prologue keeps; the rest of the guard; then
 * r1 is the context again.
 */
static void group_guard(dt_link_t *lk)
{
	dtrace_hdl_t *dtp = lk->lk_dtp;
	dt_frag_t *o = lk->lk_out;
	int lexit = dt_frag_label(o), go = dt_frag_label(o);
	dt_argreq_t rq = { dtp, lk->lk_probe, NULL, 0, o, 0, lexit, lk->lk_argspec };
	struct bpf_insn map[2] = { KS_LD_MAP_FD(BPF_REG_1, lk->lk_group->bp_tabfd) };
	const dt_provimpl_t *pv = dt_probe_prov(dtp, lk->lk_probe);

	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_6, BPF_REG_1));
	if (pv->pv_guard(&rq) != 0)
		longjmp(lk->lk_jmp, 1);
	dt_frag_emit(o, KS_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, DT_SLOT_TMP));
	dt_frag_emit(o, map[0]);
	dt_frag_emit(o, map[1]);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_10));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_2, DT_SLOT_TMP));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_map_lookup_elem));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), lexit);
	dt_frag_emit(o, KS_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_0, DT_GENT_PRID));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), lexit);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_9, BPF_REG_0));
	if (pv->pv_guard_after != NULL && pv->pv_guard_after(&rq) != 0)
		longjmp(lk->lk_jmp, 1);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_6));
	dt_frag_emit_to(o, KS_JA(0), go);
	dt_frag_place(o, lexit);
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
	dt_frag_emit(o, KS_EXIT());
	dt_frag_place(o, go);
}

static int link_program(dtrace_hdl_t *dtp, dt_run_t *r, size_t p, const char *argspec,
			const dt_frag_t *top, dt_frag_t *out, const dt_bprog_t *group)
{
	dt_link_t lk;
	bool linked[DT_SUBR_N] = { false };
	char err[256];

	memset(&lk, 0, sizeof(lk));
	lk.lk_dtp = dtp;
	lk.lk_run = r;
	lk.lk_probe = p;
	lk.lk_out = out;
	lk.lk_group = group;
	lk.lk_argspec = argspec;
	lk.lk_gstmt = -1;
	if (group != NULL) {
		if ((lk.lk_member = calloc(dtp->dt_nprobes, sizeof(bool))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		for (size_t k = 0; k < group->bp_nprobes; k++)
			lk.lk_member[group->bp_probes[k]] = true;
		if ((lk.lk_gecb = calloc((size_t)r->r_en.en_nstmts + 1, sizeof(dt_ecb_t *))) ==
		    NULL) {
			free(lk.lk_member);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
		for (uint32_t i = 0; i < r->r_en.en_necbs; i++) {
			const dt_ecb_t *e = &r->r_en.en_ecbs[i];

			if (e->e_probe != DT_ECB_FREE && lk.lk_member[e->e_probe] &&
			    lk.lk_gecb[e->e_sidx] == NULL)
				lk.lk_gecb[e->e_sidx] = e;
		}
	}
	if (argspec != NULL && (lk.lk_nargs = dt_stapsdt_args(argspec, lk.lk_args)) < 0)
		lk.lk_nargs = 0;
	if (setjmp(lk.lk_jmp) != 0) {
		for (int d = 0; d < 4; d++)
			free(lk.lk_order[d]);
		free(lk.lk_member);
		free(lk.lk_gecb);
		return -1;
	}
	for (int k = 0; k < DT_SUBR_N; k++)
		lk.lk_sub[k] = dt_frag_label(out);
	/* a probe's program (not the errno program) starts with its provider's entry code */
	if (top == &r->r_en.en_ps->ps_prologue && dt_probe_prov(dtp, p)->pv_entry != NULL &&
	    dt_probe_prov(dtp, p)->pv_entry(dtp, group != NULL ? group->bp_probes : &p,
					    group != NULL ? group->bp_nprobes : 1, out) != 0)
		longjmp(lk.lk_jmp, 1);
	if (group != NULL)
		group_guard(&lk);
	link_frag(&lk, top, NULL, false);
	/* each subprogram called, once; one may call others (the C bodies do) */
	for (bool more = true; more;) {
		more = false;
		for (int k = 0; k < DT_SUBR_N; k++) {
			if (!lk.lk_used[k] || linked[k])
				continue;
			linked[k] = more = true;
			dt_frag_place(out, lk.lk_sub[k]);
			link_frag(&lk, &r->r_en.en_ps->ps_subrs[k], NULL, false);
		}
	}
	for (int d = 0; d < 4; d++)
		free(lk.lk_order[d]);
	free(lk.lk_member);
	free(lk.lk_gecb);
	lk.lk_member = NULL;
	lk.lk_gecb = NULL;
	if (out->fr_oom)
		return dt_set_errno(dtp, EDT_NOMEM);
	/* what expansions emitted with relocations (a fault's error record, a probe's name) */
	for (size_t i = 0; i < out->fr_nrel; i++)
		relocate(&lk, &out->fr_insns[out->fr_rel[i].rl_insn], &out->fr_rel[i], NULL, false);
	out->fr_nrel = 0;
	if (dt_frag_resolve(out, err, sizeof(err)) != 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "%s", err);
	/* strcmp is a global function: checked once, whatever the number of comparisons */
	if (linked[DT_SUBR_STRCMP]) {
		out->fr_gfunc = (uint32_t)out->fr_labels[lk.lk_sub[DT_SUBR_STRCMP]];
		out->fr_gsize = r->r_en.en_ps->ps_strsize;
	}
	return 0;
}

int dt_link_probe(dtrace_hdl_t *dtp, dt_run_t *r, size_t probe, const char *argspec, dt_frag_t *out)
{
	return link_program(dtp, r, probe, argspec, &r->r_en.en_ps->ps_prologue, out, NULL);
}

int dt_link_group(dtrace_hdl_t *dtp, dt_run_t *r, const dt_bprog_t *bp, dt_frag_t *out)
{
	return link_program(dtp, r, bp->bp_probe, bp->bp_argspec, &r->r_en.en_ps->ps_prologue, out,
			    bp);
}

int dt_link_errno(dtrace_hdl_t *dtp, dt_run_t *r, dt_frag_t *out)
{
	return link_program(dtp, r, 0, NULL, &r->r_en.en_ps->ps_errno, out, NULL);
}
