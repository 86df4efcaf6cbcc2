/*
 * dt_cg_clause.c -- a clause as a whole (the predicate, the statements,
 * the record sent, the fault block), the prologue every probe's program
 * starts with, the size checks of what a probe's clauses make (the
 * kernel's instruction and branch limits, as D_CG_LIMIT at compile time),
 * and the table of built-in generators (dt_cg_generator).  The values,
 * variables and expressions the clauses are made of are dt_cg.c's.
 */

#include "dt_cg.h"

/* ---------------------------------------------------------------- clauses */

/*
 * Send size bytes of scratch at off (a scratch address) to this CPU's
 * principal buffer.  A record that finds no room is counted in this CPU's
 * dt_drops slot, which the consumer reports as "N drops on CPU M": every
 * record is either printed or counted.
 */
static void emit_output(dt_cg_t *cg, uint32_t off, uint32_t size)
{
	int sent = label(cg);

	emit(cg, KS_MOV64_REG(R1, R6));
	emit_map(cg, R2, DT_MAP_EVENTS);
	emit_imm64(cg, R3, BPF_F_CURRENT_CPU);
	emit(cg, KS_MOV64_REG(R4, R8));
	if (off != 0)
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R4, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R5, (int32_t)size));
	emit(cg, KS_CALL(BPF_FUNC_perf_event_output));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), sent);
	dt_cg_count_drop(cg, DT_DROP_PRINCIPAL);
	place(cg, sent);
}

/*
 * The fault block of a clause: the error record (its EPID that of the
 * clause on this probe), then the ERROR clauses, which linking places
 * here (none in an ERROR clause's own fault block).
 */
static void fault_block(dt_cg_t *cg)
{
	uint32_t e = SA(DT_SR_ERR, 0);

	emit_sa(cg, KS_ST_MEM(BPF_W, R8, OFF(e), 0), e);
	emit_sa(cg, KS_ST_MEM(BPF_W, R8, OFF(e + 4), 0), e);
	dt_frag_reloc(cg->cg_fr, DT_RL_EPID, 0);
	emit_output(cg, e, sizeof(dt_errrec_t));
	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_ERROR });
}

static void cg_clause(dt_cg_t *cg, dt_stmt_t *st)
{
	dt_node_t *c = st->st_clause;
	int end = label(cg), lfault = label(cg);

	cg->cg_st = st;
	cg->cg_recoff = 8;
	cg->cg_action = 0;
	cg->cg_lfault = lfault;
	cg->cg_faults = false;
	cg->cg_exits = false;
	cg->cg_tmp = 0; /* temporaries live for one clause */
	cg->cg_sp = 0;
	cg->cg_loc = &c->dn_loc;
	/*
	 * The activity, again for each clause: an exit() in an earlier clause
	 * of this firing ends it, as illumos' dtrace_probe checks the state's
	 * activity before each ECB (exit() made it DRAINING).
	 */
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R7, DT_ST_ACTIVITY));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R1, 0, 0), end);
	dt_frag_reloc(cg->cg_fr, DT_RL_ACTIVITY, 0);
	emit_rel(cg, KS_ST_MEM(BPF_W, R8, 0, 0), DT_RL_EPID, 0);
	emit(cg, KS_ST_MEM(BPF_W, R8, 4, 0));
	if (dt_cg_allocates(c)) { /* scratch memory lives for the clause */
		uint32_t u = SA(DT_SR_ALLOCA, DT_ALLOCA_USED);

		(void)dt_cg_scratch_use(cg);
		emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(u), 0), u);
	}
	if (c->dn_cond != NULL) {
		dt_cg_expr(cg, c->dn_cond);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), end);
	}
	for (dt_node_t *s = c->dn_args; s != NULL; s = s->dn_next) {
		cg->cg_action++;
		dt_cg_stmt(cg, s);
	}
	st->st_size = cg->cg_recoff;
	if (st->st_size > cg->cg_ps->ps_recmax)
		cg->cg_ps->ps_recmax = st->st_size;
	/*
	 * A clause that records nothing says only that it fired: not needed
	 * when quiet, nor when it aggregates (as DTrace: aggregating is its
	 * output).  Whether it is quiet is the consumer's, known at load.
	 */
	if (st->st_spec) {
		/* speculate(): to its speculation, or nowhere (tag 0: a_speculate) */
		int skip = label(cg);

		emit(cg, KS_LDX_MEM(BPF_W, R1, R8, 4));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), skip);
		emit_output(cg, 0, st->st_size);
		place(cg, skip);
	} else if (st->st_data) {
		emit_output(cg, 0, st->st_size);
		/*
		 * exit(): nothing records from now on.  Only once the record that
		 * tells the consumer is out: a fault after exit() in the clause
		 * abandons the clause, its exit too (before, the activity changed
		 * and the consumer, never told, waited for ever).
		 */
		if (cg->cg_exits) {
			/*
			 * Not in END: illumos' exit() in COOLDOWN leaves the
			 * activity, so END's later clauses run (and a later exit()
			 * there gives the status).
			 */
			int keep = label(cg);

			emit(cg, KS_MOV64_IMM(R1, 0));
			dt_frag_reloc(cg->cg_fr, DT_RL_ACTIVITY, 0);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, DT_ACTIVITY_ENDING, 0), keep);
			emit(cg, KS_MOV64_IMM(R1, DT_ACTIVITY_DRAINING));
			emit(cg, KS_STX_MEM(BPF_DW, R7, R1, DT_ST_ACTIVITY));
			place(cg, keep);
		}
	} else if (!st->st_agg) { /* linking drops the output when the consumer is quiet */
		size_t px = cg->cg_fr->fr_npx, from;

		emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_DEFOUT });
		from = here(cg);
		emit_output(cg, 0, st->st_size);
		cg->cg_fr->fr_px[px].px_arg = (int)(here(cg) - from);
	}
	if (cg->cg_faults) {
		/*
		 * The verifier refuses code that cannot be reached: linking drops
		 * the fault block when nothing jumps to it (a probe argument in a
		 * register cannot fault; one in memory can).
		 */
		size_t px = cg->cg_fr->fr_npx, from;

		jump(cg, end);
		emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_FAULTS, .px_lfault = lfault });
		from = here(cg);
		place(cg, lfault);
		fault_block(cg);
		cg->cg_fr->fr_px[px].px_arg = (int)(here(cg) - from);
	}
	place(cg, end);
}

/*
 * The prologue every probe's program starts with: the context, the state
 * and scratch values, the activity check; then the probe's clauses; then
 * the exit.  The checks jump to an exit before the clauses, not after
 * them: a jump reaches 32767 instructions, and a probe's clauses together
 * may be far more (the kernel takes a million).
 */
static void cg_prologue(dt_cg_t *cg)
{
	int exit_l = label(cg), clauses = label(cg);

	emit(cg, KS_MOV64_REG(R6, R1));
	dt_cg_emit_lookup0(cg, DT_MAP_STATE);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), exit_l);
	emit(cg, KS_MOV64_REG(R7, R0));
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R7, DT_ST_ACTIVITY));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R1, 0, 0), exit_l);
	dt_frag_reloc(cg->cg_fr, DT_RL_ACTIVITY, 0);
	dt_cg_emit_lookup0(cg, DT_MAP_SCRATCH);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), exit_l);
	emit(cg, KS_MOV64_REG(R8, R0));
	jump(cg, clauses);
	place(cg, exit_l);
	emit(cg, KS_MOV64_IMM(R0, 0));
	emit(cg, KS_EXIT());
	place(cg, clauses);
	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_CLAUSES });
	emit(cg, KS_MOV64_IMM(R0, 0));
	emit(cg, KS_EXIT());
}

/*
 * A probe's program holds its clauses, and the kernel loads a program of
 * at most a million instructions (BPF_COMPLEXITY_LIMIT_INSNS).  Which
 * probes a description matches is known when the program is enabled; the
 * clauses that name the same description (as written) surely share one,
 * so their sum is refused here, at the clause that crosses the limit.
 * The verifier's own limit on branches (below) is met first by code with
 * many of them, and refused here the same way.
 */
#define DT_PROG_MAXINSNS 1000000

/*
 * The verifier walks a program's path of fall-throughs first and keeps the
 * target of each conditional jump on it for later: more than 8192 pending
 * (BPF_COMPLEXITY_LIMIT_JMP_SEQ) and it refuses the program ("the sequence
 * of 8193 jumps is too complex"), after a long walk.  The conditional jumps
 * on that path are counted (dt_frag_path_jumps: a call walks its callee
 * again, a loop of strcmp's form once per iteration; bpf_loop's callbacks
 * are checked apart; an argument, which the provider reads at link time,
 * as one) and more than DT_PROG_MAXJUMPS refused.  Measured on Linux 6.18:
 * clauses of 100 count()s on tick-1s, 81 (8,184 counted) load, in 8
 * minutes, 82 are refused after 1 s; BEGIN clauses of one string
 * comparison (68 counted each), 125 load and 126 are refused, -e refuses
 * 120.  The margin is for what the count cannot see.
 */
#define DT_PROG_MAXJUMPS 8100

typedef struct desc_size {
	const char *ds_name;
	size_t ds_len, ds_jumps;
	const dt_node_t *ds_clause;
} desc_size_t;

static int desc_cmp(const void *a, const void *b)
{
	const desc_size_t *x = a, *y = b;
	int c = strcmp(x->ds_name, y->ds_name);

	if (c != 0)
		return c;
	return x->ds_clause->dn_loc.off < y->ds_clause->dn_loc.off
		   ? -1
		   : x->ds_clause->dn_loc.off > y->ds_clause->dn_loc.off;
}

static void check_prog_sizes(dt_cg_t *cg, const dtrace_prog_t *pgp)
{
	size_t n = 0, k = 0, sum = 0, jumps = 0, pro, memo[DT_SUBR_N];
	desc_size_t *d;

	for (int i = 0; i < pgp->dp_nstmts; i++)
		for (const dt_node_t *p = pgp->dp_stmts[i].st_clause->dn_pdescs; p != NULL;
		     p = p->dn_next)
			n++;
	if (n == 0 || (d = calloc(n, sizeof(*d))) == NULL)
		return; /* without memory the kernel will say it */
	for (int i = 0; i < DT_SUBR_N; i++)
		memo[i] = SIZE_MAX;
	for (int i = 0; i < pgp->dp_nstmts; i++) {
		const dt_frag_t *code = &pgp->dp_stmts[i].st_code;
		size_t nj = dt_frag_path_jumps(code, cg->cg_ps->ps_subrs, memo);

		for (const dt_node_t *p = pgp->dp_stmts[i].st_clause->dn_pdescs; p != NULL;
		     p = p->dn_next)
			d[k++] = (desc_size_t){ p->dn_name != NULL ? p->dn_name : "", code->fr_len,
						nj, pgp->dp_stmts[i].st_clause };
	}
	qsort(d, n, sizeof(*d), desc_cmp);
	pro = dt_frag_path_jumps(&cg->cg_ps->ps_prologue, cg->cg_ps->ps_subrs, memo);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(d[i].ds_name, d[i - 1].ds_name) != 0) {
			sum = cg->cg_ps->ps_prologue.fr_len;
			jumps = pro;
		}
		sum += d[i].ds_len;
		jumps += d[i].ds_jumps;
		if (jumps > DT_PROG_MAXJUMPS) {
			const dt_node_t *c = d[i].ds_clause;
			const char *name = d[i].ds_name;

			free(d);
			cg_limit(cg, c,
				 "the clauses for %s have %zu conditional jumps on one path, more "
				 "than the %d the kernel's verifier takes in one program (it keeps "
				 "at most 8192 pending: BPF_COMPLEXITY_LIMIT_JMP_SEQ)",
				 name, jumps, DT_PROG_MAXJUMPS);
		}
		if (sum > DT_PROG_MAXINSNS) {
			const dt_node_t *c = d[i].ds_clause;
			const char *name = d[i].ds_name;

			free(d);
			cg_limit(
			    cg, c,
			    "the clauses for %s need %zu BPF instructions, more than the %d the "
			    "kernel loads in one program",
			    name, sum, DT_PROG_MAXINSNS);
		}
	}
	free(d);
}

/* What the values need so far, within what BPF gives: else the clause that crossed it. */
static void check_size(dt_cg_t *cg, const dt_node_t *c)
{
	uint32_t base[DT_SR_N], scratch, state;

	dt_pstate_layout(cg->cg_ps, base, &scratch, &state);
	if (scratch > DT_VALUE_MAX)
		cg_limit(cg, c,
			 "the program needs %u bytes of scratch space (records, temporaries, "
			 "clause-local variables), more than %u: lower strsize?",
			 scratch, DT_VALUE_MAX);
	if (state > DT_VALUE_MAX)
		cg_limit(cg, c, "the global variables need %u bytes, more than %u: lower strsize?",
			 state, DT_VALUE_MAX);
}

void dt_cg_program(dt_pcb_t *pcb)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;
	dtrace_prog_t *pgp = pcb->pcb_prog;
	dt_pstate_t *ps;
	dt_cg_t cg;
	uint32_t strsize;
	int n = 0;

	for (dt_node_t *c = pgp->dp_clauses; c != NULL; c = c->dn_next)
		n += c->dn_kind == DT_N_CLAUSE;
	if (n == 0)
		return;
	if ((ps = dt_pstate(dtp)) == NULL)
		dt_cnomem(pcb);
	/* 8 to 4096, clamped as illumos does (dt_option_get) */
	strsize = (uint32_t)dt_option_get(dtp, "strsize", 256);
	strsize = (strsize + 7) & ~7u;
	if (ps->ps_strsize == 0)
		ps->ps_strsize = strsize;
	else if (ps->ps_strsize != strsize)
		dt_cerror(pcb, &pgp->dp_clauses->dn_loc, "D_CG_LIMIT",
			  "strsize is %u for the programs compiled before: it cannot change",
			  ps->ps_strsize);
	dt_pstate_begin(ps); /* what this compile adds is undone if it fails (dt_open.c) */
	memset(&cg, 0, sizeof(cg));
	cg.cg_pcb = pcb;
	cg.cg_ps = ps;
	cg.cg_strsize = strsize;
	cg.cg_loc = &pgp->dp_clauses->dn_loc;
	if (!ps->ps_ready) { /* what every program shares, made by the first */
		cg.cg_fr = &ps->ps_prologue;
		cg_prologue(&cg);
		cg.cg_fr = &ps->ps_subrs[DT_SUBR_STRCMP];
		dt_cg_sub_strcmp(&cg);
		cg.cg_fr = &ps->ps_subrs[DT_SUBR_DROP];
		dt_cg_sub_drop(&cg);
		for (int k = DT_SUBR_BPF; k < DT_SUBR_N; k++) {
			cg.cg_fr = &ps->ps_subrs[k];
			dt_cg_sub_bpf(&cg, (dt_subr_t)k);
		}
		ps->ps_ready = true;
	}
	if ((pgp->dp_stmts = calloc((size_t)n, sizeof(dt_stmt_t))) == NULL)
		dt_cnomem(pcb);
	/*
	 * Each clause is generated into one working fragment (ps_work, kept
	 * with the shared state, so that an error unwinding the compile loses
	 * nothing), reused, then
	 * copied at its size: no growing arrays per clause (a 1,000-clause
	 * program spent its page faults there).
	 */
	cg.cg_fr = &ps->ps_work;
	for (dt_node_t *c = pgp->dp_clauses; c != NULL; c = c->dn_next) {
		dt_stmt_t *st;

		if (c->dn_kind != DT_N_CLAUSE)
			continue;
		st = &pgp->dp_stmts[pgp->dp_nstmts++];
		st->st_clause = c;
		dt_frag_reset(&ps->ps_work);
		cg_clause(&cg, st);
		if (dt_frag_copy(&st->st_code, &ps->ps_work) != 0)
			dt_cnomem(pcb);
		check_size(&cg, c);
	}
	check_prog_sizes(&cg, pgp);
}

void dt_stmts_free(dtrace_prog_t *pgp)
{
	for (int i = 0; i < pgp->dp_nstmts; i++) {
		free(pgp->dp_stmts[i].st_recs);
		free(pgp->dp_stmts[i].st_acts);
		dt_frag_free(&pgp->dp_stmts[i].st_code);
	}
	free(pgp->dp_stmts);
	pgp->dp_stmts = NULL;
	pgp->dp_nstmts = 0;
}

/*
 * The sys_exit raw tracepoint's program: errno of the thread's last system
 * call (0 if it succeeded) into the dt_errno map.  A thread without an
 * entry has errno 0, so a success only writes over an error.
 */
void dt_cg_errno_prog(dt_frag_t *fr)
{
	const struct bpf_insn insns[] = {
		KS_LDX_MEM(BPF_DW, R7, R1, 8), /* args[1]: the return value */
		KS_MOV64_IMM(R8, 0),
		KS_JMP_IMM(BPF_JSGE, R7, 0, 3),
		KS_JMP_IMM(BPF_JSLT, R7, -4095, 2),
		KS_MOV64_REG(R8, R7),
		KS_ALU64_IMM(BPF_NEG, R8, 0),
		KS_CALL(BPF_FUNC_get_current_pid_tgid),
		KS_STX_MEM(BPF_W, FP, R0, -4),
		KS_STX_MEM(BPF_W, FP, R8, -8),
		KS_LD_MAP_FD(R1, 0),
		KS_MOV64_REG(R2, FP),
		KS_ALU64_IMM(BPF_ADD, R2, -4),
		KS_CALL(BPF_FUNC_map_lookup_elem),
		KS_JMP_IMM(BPF_JEQ, R0, 0, 4),
		KS_LDX_MEM(BPF_W, R1, R0, 0),
		KS_JMP_REG(BPF_JEQ, R1, R8, 11), /* no change */
		KS_STX_MEM(BPF_W, R0, R8, 0),
		KS_JMP_IMM(BPF_JA, 0, 0, 9),
		KS_JMP_IMM(BPF_JEQ, R8, 0, 8), /* no entry, no error */
		KS_LD_MAP_FD(R1, 0),
		KS_MOV64_REG(R2, FP),
		KS_ALU64_IMM(BPF_ADD, R2, -4),
		KS_MOV64_REG(R3, FP),
		KS_ALU64_IMM(BPF_ADD, R3, -8),
		KS_MOV64_IMM(R4, BPF_ANY),
		KS_CALL(BPF_FUNC_map_update_elem),
		KS_MOV64_IMM(R0, 0),
		KS_EXIT(),
	};

	for (size_t i = 0; i < sizeof(insns) / sizeof(insns[0]); i++) {
		dt_frag_emit(fr, insns[i]);
		if (insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    insns[i].src_reg == BPF_PSEUDO_MAP_FD)
			dt_frag_reloc(fr, DT_RL_MAP, DT_MAP_ERRNO);
	}
}

/* ---------------------------------------------------------------- the table */

/*
 * What generates each built-in, by id.  A built-in without a row here is
 * refused at compile time (D_UNSUPPORTED): adding one is a row and its
 * generator.
 */
static const struct cg_builtin generators[DT_B_NBUILTINS] = {
	/* variables */
	[DT_B_ARG0] = { dt_cg_v_arg, 0 },
	[DT_B_ARG1] = { dt_cg_v_arg, 1 },
	[DT_B_ARG2] = { dt_cg_v_arg, 2 },
	[DT_B_ARG3] = { dt_cg_v_arg, 3 },
	[DT_B_ARG4] = { dt_cg_v_arg, 4 },
	[DT_B_ARG5] = { dt_cg_v_arg, 5 },
	[DT_B_ARG6] = { dt_cg_v_arg, 6 },
	[DT_B_ARG7] = { dt_cg_v_arg, 7 },
	[DT_B_ARG8] = { dt_cg_v_arg, 8 },
	[DT_B_ARG9] = { dt_cg_v_arg, 9 },
	[DT_B_CALLER] = { dt_cg_v_zero, 0 },
	[DT_B_CPU] = { dt_cg_v_helper, BPF_FUNC_get_smp_processor_id },
	[DT_B_CURTHREAD] = { dt_cg_v_helper, BPF_FUNC_get_current_task },
	[DT_B_CWD] = { dt_cg_v_cwd, 0 },
	[DT_B___CURPSARGS] = { dt_cg_v_psargs, 0 },
	[DT_B_ROOT] = { dt_cg_v_cwd, 1 },
	[DT_B_ZONENAME] = { dt_cg_v_zonename, 0 },
	[DT_B_EPID] = { dt_cg_v_reloc, DT_RL_EPID },
	[DT_B_ERRNO] = { dt_cg_v_errno, 0 },
	[DT_B_EXECNAME] = { dt_cg_v_execname, 0 },
	[DT_B_GID] = { dt_cg_v_upper_lower, 1 },
	[DT_B_ID] = { dt_cg_v_reloc, DT_RL_PRID },
	[DT_B_PID] = { dt_cg_v_upper_lower, 1 },
	[DT_B_PPID] = { dt_cg_v_ppid, 0 },
	[DT_B_PROBEFUNC] = { dt_cg_v_probestr, 2 },
	[DT_B_PROBEMOD] = { dt_cg_v_probestr, 1 },
	[DT_B_PROBENAME] = { dt_cg_v_probestr, 3 },
	[DT_B_PROBEPROV] = { dt_cg_v_probestr, 0 },
	[DT_B_TID] = { dt_cg_v_upper_lower, 0 },
	[DT_B_TIMESTAMP] = { dt_cg_v_helper, BPF_FUNC_ktime_get_ns },
	[DT_B_UCALLER] = { dt_cg_v_ucaller, 0 },
	[DT_B_STACKDEPTH] = { dt_cg_v_stackdepth, 0 },
	[DT_B_USTACKDEPTH] = { dt_cg_v_stackdepth, 1 },
	[DT_B_UID] = { dt_cg_v_upper_lower, 0 },
	[DT_B_VTIMESTAMP] = { dt_cg_v_vtimestamp, 0 },
	[DT_B_WALLTIMESTAMP] = { dt_cg_v_walltimestamp, 0 },
	/* subroutines */
	[DT_B_ALLOCA] = { dt_cg_s_alloca, 0 },
	[DT_B_BCOPY] = { dt_cg_s_copyto, 1 },
	[DT_B_COPYIN] = { dt_cg_s_copyin, 0 },
	[DT_B_COPYINSTR] = { dt_cg_s_copyinstr, 0 },
	[DT_B_COPYINTO] = { dt_cg_s_copyto, 0 },
	[DT_B_GETMAJOR] = { dt_cg_s_devnum, 1 },
	[DT_B_GETMINOR] = { dt_cg_s_devnum, 0 },
	[DT_B_HTONL] = { dt_cg_s_byteorder, 32 },
	[DT_B_HTONLL] = { dt_cg_s_byteorder, 64 },
	[DT_B_HTONS] = { dt_cg_s_byteorder, 16 },
	[DT_B_NTOHL] = { dt_cg_s_byteorder, 32 },
	[DT_B_NTOHLL] = { dt_cg_s_byteorder, 64 },
	[DT_B_NTOHS] = { dt_cg_s_byteorder, 16 },
	[DT_B_PROGENYOF] = { dt_cg_s_progenyof, 0 },
	[DT_B_RAND] = { dt_cg_s_rand, 0 },
	[DT_B_SPECULATION] = { dt_cg_s_speculation, 0 },
	[DT_B_STRJOIN] = { dt_cg_s_strjoin, 0 },
	[DT_B_STRLEN] = { dt_cg_s_strlen, 0 },
	[DT_B_SUBSTR] = { dt_cg_s_substr, 0 },
	[DT_B_INDEX] = { dt_cg_s_index, DT_SUBR_INDEX },
	[DT_B_RINDEX] = { dt_cg_s_index, DT_SUBR_RINDEX },
	[DT_B_STRSTR] = { dt_cg_s_cbody, DT_SUBR_STRSTR },
	[DT_B_STRCHR] = { dt_cg_s_cbody, DT_SUBR_STRCHR },
	[DT_B_STRRCHR] = { dt_cg_s_cbody, DT_SUBR_STRRCHR },
	[DT_B_TOUPPER] = { dt_cg_s_cbody, DT_SUBR_TOUPPER },
	[DT_B_TOLOWER] = { dt_cg_s_cbody, DT_SUBR_TOLOWER },
	[DT_B_LLTOSTR] = { dt_cg_s_lltostr, 0 },
	[DT_B_BASENAME] = { dt_cg_s_cbody, DT_SUBR_BASENAME },
	[DT_B_DIRNAME] = { dt_cg_s_cbody, DT_SUBR_DIRNAME },
	[DT_B_CLEANPATH] = { dt_cg_s_cleanpath, 0 },
	[DT_B_STRTOK] = { dt_cg_s_strtok, 0 },
	[DT_B_JSON] = { dt_cg_s_json, 0 },
	[DT_B_STRTOLL] = { dt_cg_s_strtoll, 0 },
	[DT_B_INET_NTOA] = { dt_cg_s_inet, 0 },
	[DT_B_INET_NTOA6] = { dt_cg_s_inet, 1 },
	[DT_B_INET_NTOP] = { dt_cg_s_inet, 2 },
	/* actions */
	[DT_B_BREAKPOINT] = { dt_cg_a_kernel_only, 0 },
	[DT_B_CHILL] = { dt_cg_a_kernel_only, 0 },
	[DT_B_CLEAR] = { dt_cg_a_agg, DT_A_CLEAR },
	[DT_B_COMMIT] = { dt_cg_a_commit, DT_A_COMMIT },
	[DT_B_COPYOUT] = { dt_cg_a_copyout, 0 },
	[DT_B_COPYOUTSTR] = { dt_cg_a_copyout, 1 },
	[DT_B_DENORMALIZE] = { dt_cg_a_agg, DT_A_DENORMALIZE },
	[DT_B_DISCARD] = { dt_cg_a_commit, DT_A_DISCARD },
	[DT_B_EXIT] = { dt_cg_a_exit, 0 },
	[DT_B_FREOPEN] = { dt_cg_a_consumer_fmt, DT_A_FREOPEN },
	[DT_B_FTRUNCATE] = { dt_cg_a_ftruncate, 0 },
	[DT_B_NORMALIZE] = { dt_cg_a_agg, DT_A_NORMALIZE },
	[DT_B_PRINT] = { dt_cg_a_print, 0 },
	[DT_B_PRINTA] = { dt_cg_a_agg, DT_A_PRINTA },
	[DT_B_PANIC] = { dt_cg_a_kernel_only, 0 },
	[DT_B_PRINTF] = { dt_cg_a_printf, 0 },
	[DT_B_RAISE] = { dt_cg_a_signal, 0 },
	[DT_B_SETOPT] = { dt_cg_a_setopt, 0 },
	[DT_B_SPECULATE] = { dt_cg_a_speculate, 0 },
	[DT_B_STOP] = { dt_cg_a_signal, 1 },
	[DT_B_SYSTEM] = { dt_cg_a_consumer_fmt, DT_A_SYSTEM },
	[DT_B_TRACE] = { dt_cg_a_trace, 0 },
	[DT_B_TRACEMEM] = { dt_cg_a_tracemem, 0 },
	[DT_B_TRUNC] = { dt_cg_a_agg, DT_A_TRUNC },
};

/* The generator of the built-in n names (a variable or a call), or NULL. */
const struct cg_builtin *dt_cg_generator(const dt_node_t *n)
{
	const dt_builtin_t *b = n->dn_ident != NULL ? n->dn_ident->di_func : NULL;

	if (b == NULL || b->db_id >= DT_B_NBUILTINS || generators[b->db_id].g_fn == NULL)
		return NULL;
	return &generators[b->db_id];
}
