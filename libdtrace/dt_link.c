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
	int lk_sub[DT_SUBR_N]; /* the subprograms' labels in lk_out */
	/*
	 * Each fragment's labels in the order of their places, one buffer per
	 * depth of link_frag (the prologue, a clause, an ERROR clause in its
	 * fault block): freed by link_program, also after a link_error.
	 */
	int *lk_order[4];
	size_t lk_ordcap[4];
	int lk_depth;
	bool lk_used[DT_SUBR_N];
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
	case DT_RL_ACTIVITY:
		in->imm = (int32_t)dt_probe_prov(dtp, lk->lk_probe)
			      ->pv_activity(&dtp->dt_pinfo[lk->lk_probe]);
		return;
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

static void expand(dt_link_t *lk, const dt_pseudo_t *px, int lbase, const dt_ecb_t *ecb,
		   bool in_error)
{
	dt_run_t *r = lk->lk_run;
	dtrace_hdl_t *dtp = lk->lk_dtp;
	dt_frag_t *o = lk->lk_out;

	switch (px->px_kind) {
	case DT_PX_ARG: {
		dt_argreq_t rq = { dtp, lk->lk_probe,  lk->lk_args,	     lk->lk_nargs,
				   o,	px->px_action, lbase + px->px_lfault };

		if (in_error)
			error_arg(lk, px->px_arg);
		else if (dt_probe_prov(dtp, lk->lk_probe)->pv_arg(&rq, px->px_arg) != 0)
			longjmp(lk->lk_jmp, 1);
		break;
	}
	case DT_PX_PROBESTR: probe_string(lk, ecb, px->px_arg, px->px_off); break;
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
		int call = -1;

		while (li < nl && fr->fr_labels[order[li]] == (long)i)
			dt_frag_place(o, lbase + order[li++]);
		for (; ri < fr->fr_nrel && fr->fr_rel[ri].rl_insn == i; ri++) {
			relocate(lk, &in, &fr->fr_rel[ri], ecb, in_error);
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
		if (call >= 0) {
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
static int link_program(dtrace_hdl_t *dtp, dt_run_t *r, size_t p, const char *argspec,
			const dt_frag_t *top, dt_frag_t *out)
{
	dt_link_t lk;
	bool linked[DT_SUBR_N] = { false };
	char err[256];

	memset(&lk, 0, sizeof(lk));
	lk.lk_dtp = dtp;
	lk.lk_run = r;
	lk.lk_probe = p;
	lk.lk_out = out;
	if (argspec != NULL && (lk.lk_nargs = dt_stapsdt_args(argspec, lk.lk_args)) < 0)
		lk.lk_nargs = 0;
	if (setjmp(lk.lk_jmp) != 0) {
		for (int d = 0; d < 4; d++)
			free(lk.lk_order[d]);
		return -1;
	}
	for (int k = 0; k < DT_SUBR_N; k++)
		lk.lk_sub[k] = dt_frag_label(out);
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
	if (out->fr_oom)
		return dt_set_errno(dtp, EDT_NOMEM);
	/* what expansions emitted with relocations (a fault's error record, a probe's name) */
	for (size_t i = 0; i < out->fr_nrel; i++)
		relocate(&lk, &out->fr_insns[out->fr_rel[i].rl_insn], &out->fr_rel[i], NULL, false);
	out->fr_nrel = 0;
	if (dt_frag_resolve(out, err, sizeof(err)) != 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "%s", err);
	return 0;
}

int dt_link_probe(dtrace_hdl_t *dtp, dt_run_t *r, size_t probe, const char *argspec, dt_frag_t *out)
{
	return link_program(dtp, r, probe, argspec, &r->r_en.en_ps->ps_prologue, out);
}

int dt_link_errno(dtrace_hdl_t *dtp, dt_run_t *r, dt_frag_t *out)
{
	return link_program(dtp, r, 0, NULL, &r->r_en.en_ps->ps_errno, out);
}
