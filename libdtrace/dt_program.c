/*
 * dt_program.c -- the compiled program's pieces: fragments of BPF with
 * labels, relocations and pseudo-instructions; the state the programs of
 * a handle share; names for -S.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_dis.h"
#include "dt_program.h"
#include "ks.h"

/* ---------------------------------------------------------------- fragments */

void dt_frag_emit(dt_frag_t *fr, struct bpf_insn i)
{
	if (fr->fr_oom ||
	    dt_grow(&fr->fr_insns, &fr->fr_cap, fr->fr_len, sizeof(struct bpf_insn), 64) != 0) {
		fr->fr_oom = true;
		return;
	}
	fr->fr_insns[fr->fr_len++] = i;
}

int dt_frag_label(dt_frag_t *fr)
{
	if (fr->fr_oom || dt_grow(&fr->fr_labels, &fr->fr_labcap, (size_t)fr->fr_nlabels,
				  sizeof(long), 32) != 0) {
		fr->fr_oom = true;
		return 0;
	}
	fr->fr_labels[fr->fr_nlabels] = -1;
	return fr->fr_nlabels++;
}

void dt_frag_place(dt_frag_t *fr, int l)
{
	if (!fr->fr_oom)
		fr->fr_labels[l] = (long)fr->fr_len;
}

void dt_frag_emit_to(dt_frag_t *fr, struct bpf_insn i, int l)
{
	if (fr->fr_oom ||
	    dt_grow(&fr->fr_fix, &fr->fr_fixcap, fr->fr_nfix, sizeof(dt_fixup_t), 32) != 0) {
		fr->fr_oom = true;
		return;
	}
	fr->fr_fix[fr->fr_nfix++] = (dt_fixup_t){ fr->fr_len, l };
	dt_frag_emit(fr, i);
}

void dt_frag_reloc(dt_frag_t *fr, dt_rlkind_t kind, uint32_t arg)
{
	if (fr->fr_oom || fr->fr_len == 0 ||
	    dt_grow(&fr->fr_rel, &fr->fr_relcap, fr->fr_nrel, sizeof(dt_reloc_t), 16) != 0) {
		fr->fr_oom = true;
		return;
	}
	fr->fr_rel[fr->fr_nrel++] = (dt_reloc_t){ (uint32_t)(fr->fr_len - 1), kind, arg };
}

void dt_frag_pseudo(dt_frag_t *fr, const dt_pseudo_t *px)
{
	if (fr->fr_oom ||
	    dt_grow(&fr->fr_px, &fr->fr_pxcap, fr->fr_npx, sizeof(dt_pseudo_t), 8) != 0) {
		fr->fr_oom = true;
		return;
	}
	fr->fr_px[fr->fr_npx] = *px;
	dt_frag_emit(fr, (struct bpf_insn){ .code = DT_PSEUDO_CODE, .imm = (int32_t)fr->fr_npx });
	fr->fr_npx++;
}

int dt_frag_resolve(dt_frag_t *fr, char *err, size_t errlen)
{
	for (size_t i = 0; i < fr->fr_nfix; i++) {
		size_t at = fr->fr_fix[i].fx_insn;
		long to = fr->fr_labels[fr->fr_fix[i].fx_label];
		long off = to - (long)at - 1;
		struct bpf_insn *in = &fr->fr_insns[at];

		if (to < 0) {
			snprintf(err, errlen, "internal error: a label was never placed");
			return -1;
		}
		if (in->code == (BPF_JMP | BPF_CALL) ||
		    (in->code == (BPF_LD | BPF_DW | BPF_IMM) && in->src_reg == BPF_PSEUDO_FUNC)) {
			in->imm = (int32_t)off;
		} else if (off > INT16_MAX || off < INT16_MIN) {
			snprintf(err, errlen, "a clause is too large for a BPF jump");
			return -1;
		} else {
			in->off = (int16_t)off;
		}
	}
	return 0;
}

void dt_frag_reset(dt_frag_t *fr)
{
	fr->fr_oom = false;
	fr->fr_len = 0;
	fr->fr_gfunc = fr->fr_gsize = 0;
	fr->fr_nlabels = 0;
	fr->fr_nfix = fr->fr_nrel = fr->fr_npx = 0;
}

/* n elements of size bytes from src into a new exact-size array at *dst: 0, or -1. */
static int dup_array(void *dst, const void *src, size_t n, size_t size, size_t *cap)
{
	void **d = dst;

	*d = NULL;
	if (cap != NULL)
		*cap = n;
	if (n == 0)
		return 0;
	if ((*d = malloc(n * size)) == NULL)
		return -1;
	memcpy(*d, src, n * size);
	return 0;
}

int dt_frag_copy(dt_frag_t *dst, const dt_frag_t *src)
{
	size_t labcap;

	memset(dst, 0, sizeof(*dst));
	if (src->fr_oom ||
	    dup_array(&dst->fr_insns, src->fr_insns, src->fr_len, sizeof(struct bpf_insn),
		      &dst->fr_cap) != 0 ||
	    dup_array(&dst->fr_labels, src->fr_labels, (size_t)src->fr_nlabels, sizeof(long),
		      &labcap) != 0 ||
	    dup_array(&dst->fr_fix, src->fr_fix, src->fr_nfix, sizeof(dt_fixup_t),
		      &dst->fr_fixcap) != 0 ||
	    dup_array(&dst->fr_rel, src->fr_rel, src->fr_nrel, sizeof(dt_reloc_t),
		      &dst->fr_relcap) != 0 ||
	    dup_array(&dst->fr_px, src->fr_px, src->fr_npx, sizeof(dt_pseudo_t), &dst->fr_pxcap) !=
		0) {
		dt_frag_free(dst);
		return -1;
	}
	dst->fr_len = src->fr_len;
	dst->fr_labcap = labcap;
	dst->fr_nlabels = src->fr_nlabels;
	dst->fr_nfix = src->fr_nfix;
	dst->fr_nrel = src->fr_nrel;
	dst->fr_npx = src->fr_npx;
	return 0;
}

/* The first of fr's jumps to labels (fixups) at or after instruction i. */
static size_t fix_at(const dt_frag_t *fr, size_t i)
{
	size_t lo = 0, hi = fr->fr_nfix;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fr->fr_fix[mid].fx_insn < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first of fr's relocations at or after instruction i. */
static size_t rel_at(const dt_frag_t *fr, size_t i)
{
	size_t lo = 0, hi = fr->fr_nrel;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fr->fr_rel[mid].rl_insn < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Where the jump at i goes: its label's place, or its offset; -1 if unknown. */
static long jump_target(const dt_frag_t *fr, size_t i)
{
	size_t f = fix_at(fr, i);
	struct bpf_insn in = fr->fr_insns[i];

	if (f < fr->fr_nfix && fr->fr_fix[f].fx_insn == i)
		return fr->fr_labels[fr->fr_fix[f].fx_label];
	return (long)i + 1 +
	       (BPF_CLASS(in.code) == BPF_JMP32 && BPF_OP(in.code) == BPF_JA ? in.imm : in.off);
}

/*
 * A loop, the jump at i back to t, as dt_cg.c emits them: at t "if r >= N
 * goto out" (or >), before i "r += step".  The verifier walks it once per
 * value of r from 0, keeping the branches of the body each time; the test
 * at t it decides.  Its iterations, or 0 if the loop is not of this form.
 */
static size_t loop_trips(const dt_frag_t *fr, size_t t, size_t i)
{
	struct bpf_insn h = fr->fr_insns[t], inc;

	if (i == 0)
		return 0;
	inc = fr->fr_insns[i - 1];
	if (BPF_CLASS(h.code) != BPF_JMP || BPF_SRC(h.code) != BPF_K ||
	    (BPF_OP(h.code) != BPF_JGE && BPF_OP(h.code) != BPF_JGT) || h.imm <= 0 ||
	    inc.code != (BPF_ALU64 | BPF_ADD | BPF_K) || inc.dst_reg != h.dst_reg || inc.imm <= 0)
		return 0;
	return ((size_t)h.imm + (BPF_OP(h.code) == BPF_JGT) + (size_t)inc.imm - 1) /
	       (size_t)inc.imm;
}

static size_t path_jumps(const dt_frag_t *fr, const dt_frag_t *subrs, size_t *memo, int depth)
{
	uint8_t *seen = calloc(fr->fr_len ? fr->fr_len : 1, 1);
	size_t *at = calloc(fr->fr_len ? fr->fr_len : 1, sizeof(size_t)); /* n when first reached */
	size_t n = 0, i = 0;

	if (seen == NULL || at == NULL || depth > 8) {
		free(seen);
		free(at);
		return 0;
	}
	while (i < fr->fr_len && !seen[i]) {
		struct bpf_insn in = fr->fr_insns[i];
		int cls = BPF_CLASS(in.code), op = BPF_OP(in.code);

		seen[i] = 1;
		at[i] = n;
		if (in.code == DT_PSEUDO_CODE && fr->fr_px[in.imm].px_kind == DT_PX_ARG)
			n++; /* the provider's code may test a read of memory for a fault */
		if (in.code == DT_PSEUDO_CODE || (cls != BPF_JMP && cls != BPF_JMP32)) {
			i += in.code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1;
			continue;
		}
		if (op == BPF_EXIT)
			break;
		if (op == BPF_CALL) {
			size_t r = rel_at(fr, i);

			for (; r < fr->fr_nrel && fr->fr_rel[r].rl_insn == i; r++) {
				uint32_t k = fr->fr_rel[r].rl_arg;

				if (fr->fr_rel[r].rl_kind != DT_RL_CALL || k >= DT_SUBR_N ||
				    k == DT_SUBR_STRCMP) /* global: checked apart */
					continue;
				if (memo[k] == SIZE_MAX) /* each call site walks the callee again */
					memo[k] = path_jumps(&subrs[k], subrs, memo, depth + 1);
				n += memo[k];
			}
			i++;
			continue;
		}
		if (op == BPF_JA) {
			long to = jump_target(fr, i), out;
			size_t trips;

			if (to < 0 || (size_t)to >= fr->fr_len)
				break;
			if (!seen[to]) {
				i = (size_t)to;
				continue;
			}
			/* a loop: its body's branches once per iteration, then out at its test */
			if ((trips = loop_trips(fr, (size_t)to, i)) == 0 ||
			    (out = jump_target(fr, (size_t)to)) < 0)
				break;
			n = at[to] + (n - at[to] - 1) * trips;
			i = (size_t)out;
			continue;
		}
		/* but one against the CPU count: the verifier bounds get_smp_processor_id() by it */
		{
			size_t r = rel_at(fr, i);

			n += !(r < fr->fr_nrel && fr->fr_rel[r].rl_insn == i &&
			       fr->fr_rel[r].rl_kind == DT_RL_NCPUS);
		}
		i++;
	}
	free(seen);
	free(at);
	return n;
}

size_t dt_frag_path_jumps(const dt_frag_t *fr, const dt_frag_t *subrs, size_t *memo)
{
	return path_jumps(fr, subrs, memo, 0);
}

void dt_frag_free(dt_frag_t *fr)
{
	free(fr->fr_insns);
	free(fr->fr_labels);
	free(fr->fr_fix);
	free(fr->fr_rel);
	free(fr->fr_px);
	memset(fr, 0, sizeof(*fr));
}

/* ---------------------------------------------------------------- shared state */

dt_pstate_t *dt_pstate(dtrace_hdl_t *dtp)
{
	dt_pstate_t *ps = dtp->dt_pstate;

	if (ps != NULL)
		return ps;
	if ((ps = calloc(1, sizeof(*ps))) == NULL ||
	    (ps->ps_vars = dt_strset_create(&ps->ps_arena)) == NULL) {
		free(ps);
		dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	ps->ps_state = DT_ST_HDRSIZE;
	ps->ps_keysize = 16;
	ps->ps_dynkeysize = 16;
	ps->ps_valsize = 8;
	dtp->dt_pstate = ps;
	return ps;
}

void dt_pstate_layout(const dt_pstate_t *ps, uint32_t base[DT_SR_N], uint32_t *scratch,
		      uint32_t *state)
{
	uint32_t size[DT_SR_N] = { 0 };

	size[DT_SR_REC] = (ps->ps_recmax + 7) & ~7u;
	size[DT_SR_ERR] = sizeof(dt_errrec_t);
	size[DT_SR_ERR2] = sizeof(dt_errrec_t);
	size[DT_SR_THIS] = (ps->ps_thissize + 7) & ~7u;
	size[DT_SR_KEY] = ps->ps_keysize;
	size[DT_SR_VAL] = ps->ps_valsize;
	size[DT_SR_EMPTY] = ps->ps_strsize;
	size[DT_SR_TMP] = ps->ps_tmpsize;
	size[DT_SR_ALLOCA] = ps->ps_scratchsize ? DT_ALLOCA_DATA + 2 * ps->ps_scratchsize : 0;
	size[DT_SR_SUBR] = ps->ps_subrsize;
	*scratch = 0;
	for (int i = 0; i < DT_SR_N; i++) {
		base[i] = *scratch;
		*scratch += size[i];
	}
	*state = (ps->ps_state + 7) & ~7u;
}

int dt_pstate_insert(dt_pstate_t *ps, const char *key, const void *val)
{
	struct dt_pstate_mark *m = &ps->ps_mark;
	char *k = dt_arena_strndup(&ps->ps_arena, key, strlen(key));

	/* put, not add: an undone compile leaves its names with no place */
	if (k == NULL || dt_strset_put(ps->ps_vars, k, val) != 0)
		return -1;
	if (m->pm_open) {
		if (dt_grow(&m->pm_keys, &m->pm_keycap, m->pm_nkeys, sizeof(char *), 16) != 0)
			return -1;
		m->pm_keys[m->pm_nkeys++] = k;
	}
	return 0;
}

void dt_pstate_begin(dt_pstate_t *ps)
{
	struct dt_pstate_mark *m = &ps->ps_mark;

	m->pm_open = true;
	m->pm_nsouvars = ps->ps_nsouvars;
	m->pm_naggs = ps->ps_naggs;
	m->pm_aggzero = ps->ps_aggzero;
	m->pm_strsize = ps->ps_strsize;
	m->pm_recmax = ps->ps_recmax;
	m->pm_thissize = ps->ps_thissize;
	m->pm_tmpsize = ps->ps_tmpsize;
	m->pm_scratchsize = ps->ps_scratchsize;
	m->pm_subrsize = ps->ps_subrsize;
	m->pm_keysize = ps->ps_keysize;
	m->pm_dynkeysize = ps->ps_dynkeysize;
	m->pm_valsize = ps->ps_valsize;
	m->pm_sousize = ps->ps_sousize;
	m->pm_specsites = ps->ps_specsites;
	m->pm_state = ps->ps_state;
	m->pm_nvarids = ps->ps_nvarids;
	m->pm_use_errno = ps->ps_use_errno;
	m->pm_use_ustack = ps->ps_use_ustack;
	m->pm_ready = ps->ps_ready;
	m->pm_nkeys = 0;
}

void dt_pstate_end(dt_pstate_t *ps)
{
	ps->ps_mark.pm_open = false;
}

void dt_pstate_undo(dt_pstate_t *ps)
{
	struct dt_pstate_mark *m = &ps->ps_mark;

	if (!m->pm_open)
		return;
	for (size_t i = 0; i < m->pm_nkeys; i++)
		(void)dt_strset_put(ps->ps_vars, m->pm_keys[i], NULL); /* in place: no memory */
	ps->ps_nsouvars = m->pm_nsouvars;
	ps->ps_naggs = m->pm_naggs;
	ps->ps_aggzero = m->pm_aggzero;
	ps->ps_strsize = m->pm_strsize;
	ps->ps_recmax = m->pm_recmax;
	ps->ps_thissize = m->pm_thissize;
	ps->ps_tmpsize = m->pm_tmpsize;
	ps->ps_scratchsize = m->pm_scratchsize;
	ps->ps_subrsize = m->pm_subrsize;
	ps->ps_keysize = m->pm_keysize;
	ps->ps_dynkeysize = m->pm_dynkeysize;
	ps->ps_valsize = m->pm_valsize;
	ps->ps_sousize = m->pm_sousize;
	ps->ps_specsites = m->pm_specsites;
	ps->ps_state = m->pm_state;
	ps->ps_nvarids = m->pm_nvarids;
	ps->ps_use_ustack = m->pm_use_ustack;
	if (!m->pm_use_errno) {
		ps->ps_use_errno = false;
		dt_frag_free(&ps->ps_errno);
	}
	if (!m->pm_ready) { /* made by this compile: the next makes them again */
		ps->ps_ready = false;
		dt_frag_free(&ps->ps_prologue);
		for (int i = 0; i < DT_SUBR_N; i++)
			dt_frag_free(&ps->ps_subrs[i]);
	}
	m->pm_open = false;
}

void dt_pstate_free(dtrace_hdl_t *dtp)
{
	dt_pstate_t *ps = dtp->dt_pstate;

	if (ps == NULL)
		return;
	free(ps->ps_souvars);
	free(ps->ps_aggs);
	free(ps->ps_mark.pm_keys);
	dt_frag_free(&ps->ps_prologue);
	dt_frag_free(&ps->ps_errno);
	dt_frag_free(&ps->ps_work);
	for (int i = 0; i < DT_SUBR_N; i++)
		dt_frag_free(&ps->ps_subrs[i]);
	dt_arena_free(&ps->ps_arena);
	free(ps);
	dtp->dt_pstate = NULL;
}

/* ---------------------------------------------------------------- names */

static const char *const region_names[DT_SR_N] = { "rec", "err",   "err2", "this",   "key",
						   "val", "empty", "tmp",  "alloca", "subr" };
static const char *const fixed_maps[DT_MAP_NFIXED] = { "dt_state",     "dt_scratch", "dt_dvars",
						       "dt_events",    "dt_drops",   "dt_errno",
						       "dt_zero",      "dt_spec",    "dt_unw_rows",
						       "dt_unw_procs", "dt_unw_req", "dt_ticks" };
/* by DT_TOFF_*: named, so that the list cannot fall out of step with the enum */
static const char *const toff_names[DT_TOFF_N] = {
	[DT_TOFF_REAL_PARENT] = "task_struct.real_parent",
	[DT_TOFF_TGID] = "task_struct.tgid",
	[DT_TOFF_SUM_EXEC] = "task_struct.se.sum_exec_runtime",
	[DT_TOFF_GROUP_LEADER] = "task_struct.group_leader",
	[DT_TOFF_COMM] = "task_struct.comm",
	[DT_TOFF_CRED] = "task_struct.cred",
	[DT_TOFF_EUID] = "cred.euid",
	[DT_TOFF_EGID] = "cred.egid",
	[DT_TOFF_SIGNAL] = "task_struct.signal",
	[DT_TOFF_NR_THREADS] = "signal_struct.nr_threads",
	[DT_TOFF_PGID_PID] = "signal_struct.pids[PIDTYPE_PGID]",
	[DT_TOFF_SID_PID] = "signal_struct.pids[PIDTYPE_SID]",
	[DT_TOFF_PID_NR] = "pid.numbers[0].nr",
	[DT_TOFF_MM] = "task_struct.mm",
	[DT_TOFF_ARG_START] = "mm_struct.arg_start",
	[DT_TOFF_ARG_END] = "mm_struct.arg_end",
	[DT_TOFF_FS] = "task_struct.fs",
	[DT_TOFF_PWD_DENTRY] = "fs_struct.pwd.dentry",
	[DT_TOFF_PWD_MNT] = "fs_struct.pwd.mnt",
	[DT_TOFF_ROOT_DENTRY] = "fs_struct.root.dentry",
	[DT_TOFF_ROOT_MNT] = "fs_struct.root.mnt",
	[DT_TOFF_D_PARENT] = "dentry.d_parent",
	[DT_TOFF_D_NAME] = "dentry.d_name.name",
	[DT_TOFF_MNT_ROOT] = "vfsmount.mnt_root",
	[DT_TOFF_MOUNT_MNT] = "mount.mnt",
	[DT_TOFF_MNT_PARENT] = "mount.mnt_parent",
	[DT_TOFF_MNT_MOUNTPT] = "mount.mnt_mountpoint",
	[DT_TOFF_FSBASE] = "task_struct.thread.fsbase",
	[DT_TOFF_GSBASE] = "task_struct.thread.gsbase",
	[DT_TOFF_TI_STATUS] = "task_struct.thread_info.status",
	[DT_TOFF_PID] = "task_struct.pid",
	[DT_TOFF_EXIT_CODE] = "task_struct.exit_code",
	[DT_TOFF_SA_HANDLER] = "k_sigaction.sa.sa_handler",
	[DT_TOFF_FLAGS] = "task_struct.flags",
	[DT_TOFF_STATE] = "task_struct.__state",
	[DT_TOFF_PRIO] = "task_struct.prio",
	[DT_TOFF_NORMAL_PRIO] = "task_struct.normal_prio",
	[DT_TOFF_HRTIMER_FN] = "hrtimer.function",
};
/* a subprogram's name: strcmp, or the C function's */
static const char *subr_name(uint32_t a)
{
	return a == DT_SUBR_STRCMP ? "strcmp"
	       : a == DT_SUBR_DROP ? "drop"
	       : a < DT_SUBR_N	   ? dt_bpf_funcs[a - DT_SUBR_BPF].bf_name
				   : "?";
}

size_t dt_reloc_name(const dtrace_hdl_t *dtp, const dt_reloc_t *rl, char *buf, size_t len)
{
	const dt_pstate_t *ps = dtp->dt_pstate;
	uint32_t a = rl->rl_arg;

	switch (rl->rl_kind) {
	case DT_RL_MAP:
		if (a < DT_MAP_NFIXED)
			return (size_t)snprintf(buf, len, "map %s", fixed_maps[a]);
		if (a >= DT_MAP_SOU(0))
			return (size_t)snprintf(buf, len, "map dt_sou%u",
						ps != NULL && a - DT_MAP_SOU(0) < ps->ps_nsouvars
						    ? ps->ps_souvars[a - DT_MAP_SOU(0)].sv_id
						    : a - DT_MAP_SOU(0));
		if (ps != NULL && a - DT_MAP_AGG(0) >= 1 && a - DT_MAP_AGG(0) <= ps->ps_naggs)
			return (size_t)snprintf(buf, len, "map @%s",
						ps->ps_aggs[a - DT_MAP_AGG(1)]->ag_name);
		return (size_t)snprintf(buf, len, "map dt_agg%u", a - DT_MAP_AGG(0));
	case DT_RL_SCR:
		return (size_t)snprintf(buf, len, "+%s", a < DT_SR_N ? region_names[a] : "?");
	case DT_RL_EPID: return (size_t)snprintf(buf, len, "epid");
	case DT_RL_PRID: return (size_t)snprintf(buf, len, "probe id");
	case DT_RL_NCPUS: return (size_t)snprintf(buf, len, "ncpus");
	case DT_RL_NSPEC: return (size_t)snprintf(buf, len, "nspec");
	case DT_RL_TOFF:
		return (size_t)snprintf(buf, len, "+offsetof %s",
					a < DT_TOFF_N ? toff_names[a] : "?");
	case DT_RL_ACTIVITY: return (size_t)snprintf(buf, len, "activity");
	case DT_RL_CALL: return (size_t)snprintf(buf, len, "call %s", subr_name(a));
	case DT_RL_FUNC: return (size_t)snprintf(buf, len, "func %s", subr_name(a));
	}
	return (size_t)snprintf(buf, len, "?");
}

size_t dt_pseudo_name(const dt_pseudo_t *px, char *buf, size_t len)
{
	static const char *const probestr[] = { "probeprov", "probemod", "probefunc", "probename" };

	switch (px->px_kind) {
	case DT_PX_ARG: return (size_t)snprintf(buf, len, "r0 = arg%d of the probe", px->px_arg);
	case DT_PX_PROBESTR:
		return (size_t)snprintf(
		    buf, len, "r0 = %s in tmp+%u",
		    px->px_arg >= 0 && px->px_arg < 4 ? probestr[px->px_arg] : "?", px->px_off);
	case DT_PX_KEYZERO: return (size_t)snprintf(buf, len, "zero the key");
	case DT_PX_DEFOUT:
		return (size_t)snprintf(buf, len, "when quiet, drop the next %d", px->px_arg);
	case DT_PX_ERROR: return (size_t)snprintf(buf, len, "the ERROR clauses");
	case DT_PX_CLAUSES: return (size_t)snprintf(buf, len, "the probe's clauses");
	case DT_PX_FAULTS:
		return (size_t)snprintf(buf, len, "unless a fault jumps here, drop the next %d",
					px->px_arg);
	}
	return (size_t)snprintf(buf, len, "?");
}

/* ---------------------------------------------------------------- shared sequences */

void dt_frag_read_kernel(dt_frag_t *fr, int toff, int size, int16_t slot, int fail)
{
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, 0));
	if (toff >= 0)
		dt_frag_reloc(fr, DT_RL_TOFF, (uint32_t)toff);
	dt_frag_load_kernel(fr, size, slot, fail);
}

void dt_frag_ctx_arg(dt_frag_t *fr, int k)
{
	dt_frag_emit(fr, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, (int16_t)(8 * k)));
}

void dt_frag_load_kernel(dt_frag_t *fr, int size, int16_t slot, int fail)
{
	dt_frag_emit(fr, KS_MOV64_REG(BPF_REG_1, BPF_REG_10));
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_ADD, BPF_REG_1, slot));
	dt_frag_emit(fr, KS_MOV64_IMM(BPF_REG_2, size));
	dt_frag_emit(fr, KS_CALL(BPF_FUNC_probe_read_kernel)); /* zeroes the slot if it fails */
	if (fail >= 0)
		dt_frag_emit_to(fr, KS_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0), fail);
	dt_frag_emit(fr, KS_LDX_MEM(size == 4 ? BPF_W : BPF_DW, BPF_REG_0, BPF_REG_10, slot));
}

void dt_frag_syscall_nr(dt_frag_t *fr, bool entry, int fail)
{
	if (entry) {
		dt_frag_emit(fr, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, 8));
		return;
	}
	dt_frag_emit(fr, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0)); /* regs */
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, ks_syscall_nr_offset()));
	dt_frag_load_kernel(fr, 8, DT_SLOT_GUARD, fail);
}

void dt_frag_compat_exit(dt_frag_t *fr, int16_t slot, int fail)
{
	dt_frag_emit(fr, KS_CALL(BPF_FUNC_get_current_task));
	dt_frag_emit(fr, KS_MOV64_REG(BPF_REG_3, BPF_REG_0));
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, 0));
	dt_frag_reloc(fr, DT_RL_TOFF, DT_TOFF_TI_STATUS);
	dt_frag_load_kernel(fr, 4, slot, -1);
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_AND, BPF_REG_0, KS_TS_COMPAT));
	dt_frag_emit_to(fr, KS_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0), fail);
}

void dt_frag_extend(dt_frag_t *fr, int reg, size_t sz, bool sign)
{
	if (sz >= 8)
		return;
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_LSH, reg, (int32_t)(64 - 8 * sz)));
	dt_frag_emit(fr, KS_ALU64_IMM(sign ? BPF_ARSH : BPF_RSH, reg, (int32_t)(64 - 8 * sz)));
}

void dt_frag_fault(dt_frag_t *fr, int kind, int addrreg, int action, int lfault)
{
	static const struct {
		int size;
		int16_t off;
	} f[] = { { BPF_W, offsetof(dt_errrec_t, er_action) },
		  { BPF_W, offsetof(dt_errrec_t, er_pc) },
		  { BPF_DW, offsetof(dt_errrec_t, er_fault) },
		  { BPF_DW, offsetof(dt_errrec_t, er_addr) } };
	int32_t v[] = { action, (int32_t)fr->fr_len, kind, 0 };

	for (int i = 0; i < 4; i++) {
		if (i == 3 && addrreg >= 0)
			dt_frag_emit(fr, KS_STX_MEM(BPF_DW, BPF_REG_8, addrreg, f[i].off));
		else
			dt_frag_emit(fr, KS_ST_MEM(f[i].size, BPF_REG_8, f[i].off, v[i]));
		dt_frag_reloc(fr, DT_RL_SCR, DT_SR_ERR);
	}
	dt_frag_emit_to(fr, KS_JA(0), lfault);
}

void dt_frag_string(dt_frag_t *fr, uint32_t off, const char *s, size_t len, uint32_t strsize)
{
	if (len > strsize - 1)
		len = strsize - 1;
	for (uint32_t i = 0; i < len + 1; i += 4) {
		uint32_t w = 0;

		for (uint32_t j = 0; j < 4 && i + j < len; j++)
			w |= (uint32_t)(unsigned char)s[i + j] << (8 * j);
		dt_frag_emit(fr, KS_ST_MEM(BPF_W, BPF_REG_8, (int16_t)(off + i), (int32_t)w));
		dt_frag_reloc(fr, DT_RL_SCR, DT_SR_TMP);
	}
	dt_frag_emit(fr, KS_MOV64_REG(BPF_REG_0, BPF_REG_8));
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_ADD, BPF_REG_0, (int32_t)off));
	dt_frag_reloc(fr, DT_RL_SCR, DT_SR_TMP);
}

void dt_frag_load_user(dt_frag_t *fr, size_t sz, bool sign, int action, int lfault)
{
	int ok = dt_frag_label(fr);
	int size = sz == 1 ? BPF_B : sz == 2 ? BPF_H : sz == 4 ? BPF_W : BPF_DW;

	dt_frag_emit(fr, KS_MOV64_REG(BPF_REG_9, BPF_REG_0));
	dt_frag_emit(fr, KS_ST_MEM(BPF_DW, BPF_REG_10, DT_SLOT_TMP, 0));
	dt_frag_emit(fr, KS_MOV64_REG(BPF_REG_3, BPF_REG_0));
	dt_frag_emit(fr, KS_MOV64_REG(BPF_REG_1, BPF_REG_10));
	dt_frag_emit(fr, KS_ALU64_IMM(BPF_ADD, BPF_REG_1, DT_SLOT_TMP));
	dt_frag_emit(fr, KS_MOV64_IMM(BPF_REG_2, (int32_t)sz));
	dt_frag_emit(fr, KS_CALL(BPF_FUNC_probe_read_user));
	dt_frag_emit_to(fr, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), ok);
	dt_frag_fault(fr, DT_FLT_BADADDR, BPF_REG_9, action, lfault);
	dt_frag_place(fr, ok);
	dt_frag_emit(fr, KS_LDX_MEM(size, BPF_REG_0, BPF_REG_10, DT_SLOT_TMP));
	dt_frag_extend(fr, BPF_REG_0, sz, sign);
}

/* ---------------------------------------------------------------- -S */

typedef struct dis_ctx {
	const dtrace_hdl_t *dc_dtp;
	const dt_frag_t *dc_fr;
	size_t dc_rel; /* the next relocation to name */
	char dc_buf[160];
} dis_ctx_t;

/* what instruction i refers to; "=text" stands for a pseudo-instruction's own text */
static const char *dis_note(size_t i, void *arg)
{
	dis_ctx_t *dc = arg;
	const dt_frag_t *fr = dc->dc_fr;
	size_t len = 0;

	dc->dc_buf[0] = '\0';
	if (fr->fr_insns[i].code == DT_PSEUDO_CODE && fr->fr_insns[i].imm >= 0 &&
	    (size_t)fr->fr_insns[i].imm < fr->fr_npx) {
		dc->dc_buf[0] = '=';
		(void)dt_pseudo_name(&fr->fr_px[fr->fr_insns[i].imm], dc->dc_buf + 2,
				     sizeof(dc->dc_buf) - 3);
		dc->dc_buf[1] = '<';
		strncat(dc->dc_buf, ">", sizeof(dc->dc_buf) - strlen(dc->dc_buf) - 1);
		return dc->dc_buf;
	}
	while (dc->dc_rel < fr->fr_nrel && fr->fr_rel[dc->dc_rel].rl_insn < i)
		dc->dc_rel++;
	for (size_t r = dc->dc_rel; r < fr->fr_nrel && fr->fr_rel[r].rl_insn == i; r++) {
		if (len > 0 && len + 2 < sizeof(dc->dc_buf))
			len += (size_t)snprintf(dc->dc_buf + len, sizeof(dc->dc_buf) - len, ", ");
		if (len < sizeof(dc->dc_buf))
			len += dt_reloc_name(dc->dc_dtp, &fr->fr_rel[r], dc->dc_buf + len,
					     sizeof(dc->dc_buf) - len);
	}
	return len > 0 ? dc->dc_buf : NULL;
}

/* A fragment's text: jumps resolved in a copy, relocations and pseudo-instructions named. */
static int dis_frag(const dtrace_hdl_t *dtp, FILE *fp, const dt_frag_t *fr)
{
	dt_frag_t copy = *fr;
	dis_ctx_t dc = { dtp, &copy, 0, "" };
	char err[128];

	if ((copy.fr_insns = malloc((fr->fr_len ? fr->fr_len : 1) * sizeof(*copy.fr_insns))) ==
	    NULL)
		return -1;
	memcpy(copy.fr_insns, fr->fr_insns, fr->fr_len * sizeof(*copy.fr_insns));
	if (dt_frag_resolve(&copy, err, sizeof(err)) == 0)
		dt_dis(fp, "\t", copy.fr_insns, copy.fr_len, dis_note, &dc);
	free(copy.fr_insns);
	return 0;
}

int dt_program_dis(dtrace_hdl_t *dtp, const dtrace_prog_t *pgp, FILE *fp)
{
	static const char *const kinds[] = {
		[DT_RK_INT] = "int",	 [DT_RK_STR] = "string",   [DT_RK_MEM] = "memory",
		[DT_RK_BYTES] = "bytes", [DT_RK_USYM] = "address", [DT_RK_STACK] = "stack",
	};

	for (int k = 0; k < pgp->dp_nstmts; k++) {
		const dt_stmt_t *st = &pgp->dp_stmts[k];
		const dt_node_t *c = st->st_clause;

		fprintf(fp, "clause %d (%s:%u:%u", k + 1, c->dn_loc.file ? c->dn_loc.file : "",
			c->dn_loc.line, c->dn_loc.col);
		for (const dt_node_t *pd = c->dn_pdescs; pd != NULL; pd = pd->dn_next)
			fprintf(fp, "%s%s", pd == c->dn_pdescs ? ": " : ", ", pd->dn_name);
		fprintf(fp, "): %zu instructions, a record of %u bytes\n", st->st_code.fr_len,
			st->st_size);
		for (int i = 0; i < st->st_nrecs; i++) {
			const dt_rec_t *r = &st->st_recs[i];

			fprintf(fp, "\trecord at %u: %s, %u bytes%s", r->r_off, kinds[r->r_kind],
				r->r_size, r->r_signed ? ", signed" : "");
			if (r->r_kind == DT_RK_STACK)
				fprintf(fp, " (%u frames)", r->r_nframes);
			fputc('\n', fp);
		}
		if (dis_frag(dtp, fp, &st->st_code) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
		fputc('\n', fp);
	}
	return 0;
}
