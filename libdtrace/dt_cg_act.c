/*
 * dt_cg_act.c -- code generation of the actions (trace, printf, exit,
 * the library and destructive actions), aggregations and speculations
 * (dt_cg.h).
 */

#include "dt_cg.h"
/* ---------------------------------------------------------------- aggregations */

static const char *const aggfn_names[] = { "count",  "sum",	 "min",	      "max",	   "avg",
					   "stddev", "quantize", "lquantize", "llquantize" };

/* The aggregating function a built-in is, or -1. */
static int aggfn_of(dt_bid_t id)
{
	switch (id) {
	case DT_B_COUNT: return DT_AGG_COUNT;
	case DT_B_SUM: return DT_AGG_SUM;
	case DT_B_MIN: return DT_AGG_MIN;
	case DT_B_MAX: return DT_AGG_MAX;
	case DT_B_AVG: return DT_AGG_AVG;
	case DT_B_STDDEV: return DT_AGG_STDDEV;
	case DT_B_QUANTIZE: return DT_AGG_QUANTIZE;
	case DT_B_LQUANTIZE: return DT_AGG_LQUANTIZE;
	case DT_B_LLQUANTIZE: return DT_AGG_LLQUANTIZE;
	default: return -1;
	}
}

uint32_t dt_llq_orders(const int64_t a[4], dt_llq_order_t *o, int *norders)
{
	int64_t factor = a[0], low = a[1], high = a[2], nsteps = a[3], this = 1, last;
	uint32_t base = 1;
	int n = 0;

	for (int64_t order = 0; order < low; order++)
		this *= factor;
	last = this;
	this *= factor; /* the checker made sure factor^(high + 1) fits */
	for (; low <= high && n < DT_LLQUANTIZE_MAXORDERS; low++) {
		int64_t nb = this > nsteps ? nsteps : this;

		o[n++] = (dt_llq_order_t){ last, this, this / nb, base };
		base += (uint32_t)(nb - nb / factor);
		last = this;
		if (low < high)
			this *= factor;
	}
	*norders = n;
	return base + 1;
}

static const char *type_name(dt_cg_t *cg, dt_arena_t *a, const dt_type_t *t);

/*
 * The record of an aggregation key of type t at *off (advanced past it),
 * as illumos records a key by its size (dt_cg's DIF_TF_BYREF keys) and
 * dt_print_datum prints it: an integer's 8 bytes; a string's strsize; a
 * struct, union or array (its bytes, dt_cg_store_keys) of 1, 2, 4 or 8
 * bytes as an integer of that size, of any other size as bytes, printed
 * as a string if they look like one, else as a dump (dt_print_bytes).
 */
static bool key_rec(dt_cg_t *cg, const dt_type_t *t, const dt_node_t *kn, uint32_t *off,
		    dt_rec_t *r)
{
	int sym = kn != NULL ? dt_cg_usym_kind(kn) : -1;
	int stk = kn != NULL ? dt_cg_stack_kind(kn) : -1;

	if (sym >= 0) { /* @[ufunc(pc)]: the process ID and the address (dt_cg_store_keys) */
		*r = (dt_rec_t){ .r_off = *off, .r_size = 16, .r_kind = DT_RK_USYM, .r_sym = sym };
		*off += 16;
	} else if (stk >= 0) { /* @[ustack()]: the stack's record, compared as bytes */
		uint32_t nf, sz = dt_cg_stack_size(cg, kn, &nf);

		*r = (dt_rec_t){ .r_off = *off,
				 .r_size = sz,
				 .r_kind = DT_RK_STACK,
				 .r_sym = stk,
				 .r_nframes = nf };
		*off += sz;
	} else if (is_string(t)) {
		*r = (dt_rec_t){ .r_off = *off, .r_size = cg->cg_strsize, .r_kind = DT_RK_STR };
		*off += cg->cg_strsize;
	} else if (dt_cg_is_blob(t) && vsize(cg, t) > 0 && vsize(cg, t) <= 4096) {
		size_t sz = vsize(cg, t);
		bool asint = sz == 1 || sz == 2 || sz == 4 || sz == 8;

		*r = (dt_rec_t){ .r_off = *off,
				 .r_size = (uint32_t)sz,
				 .r_kind = asint ? DT_RK_INT : DT_RK_BYTES };
		*off += (uint32_t)((sz + 7) & ~(size_t)7);
	} else if (dt_type_is_scalar(t)) {
		size_t sz = tsize(t);

		*r = (dt_rec_t){ .r_off = *off,
				 .r_size = (uint32_t)(sz ? sz : 8),
				 .r_kind = DT_RK_INT,
				 .r_signed = dt_type_is_int(t) && dt_type_is_signed(t) };
		*off += 8;
	} else {
		return false;
	}
	return true;
}

/*
 * The run's record of an aggregation (an, a DT_N_AGG the checker linked to
 * its identifier), made at its first use; call is where to report errors.
 */
static dt_agg_t *agg_of(dt_cg_t *cg, dt_node_t *an, const dt_node_t *keys, const dt_node_t *call)
{
	dt_pstate_t *ps = cg->cg_ps;
	const dt_ident_t *id = an->dn_ident;
	int fn = aggfn_of(id != NULL && id->di_func != NULL ? id->di_func->db_id : DT_B_NBUILTINS);
	dt_agg_t *ag;
	uint32_t off = 0;
	char key[256];

	/* by name in the table of variables, as @name: one look-up, not a walk of the list */
	snprintf(key, sizeof(key), "@%s", an->dn_name);
	if ((ag = (dt_agg_t *)dt_strset_get(ps->ps_vars, key)) != NULL) {
		bool same = id == NULL || id->di_nkeys <= 0 ? ag->ag_nkeys == 0
							    : ag->ag_nkeys == id->di_nkeys;

		if ((int)ag->ag_fn != fn)
			cg_verror_tag(cg, call, "D_AGG_REDEF",
				      "@%s is %s( ) in another program, %s( ) here", an->dn_name,
				      aggfn_names[ag->ag_fn], fn >= 0 ? aggfn_names[fn] : "?");
		for (int i = 0; same && i < ag->ag_nkeys && keys != NULL;
		     i++, keys = keys->dn_next) {
			dt_rec_t r;

			/* an int's width may differ: each takes 8 bytes */
			same = key_rec(cg, id->di_keys[i], keys, &off, &r) &&
			       r.r_kind == ag->ag_keys[i].r_kind &&
			       (r.r_kind != DT_RK_BYTES || r.r_size == ag->ag_keys[i].r_size) &&
			       (r.r_kind != DT_RK_USYM || r.r_sym == ag->ag_keys[i].r_sym) &&
			       (r.r_kind != DT_RK_STACK || (r.r_sym == ag->ag_keys[i].r_sym &&
							    r.r_size == ag->ag_keys[i].r_size));
		}
		if (!same ||
		    (id != NULL && memcmp(ag->ag_args, id->di_aggargs, sizeof(ag->ag_args)) != 0))
			cg_verror_tag(cg, call, "D_AGG_REDEF",
				      "@%s has other keys or arguments in another program",
				      an->dn_name);
		return ag;
	}
	if (fn < 0)
		cg_limit(cg, call, "@%s has no aggregating function", an->dn_name);
	if (dt_grow(&ps->ps_aggs, &ps->ps_aggcap, ps->ps_naggs, sizeof(dt_agg_t *), 4) != 0)
		dt_cnomem(cg->cg_pcb);
	if ((ag = dt_arena_alloc(&ps->ps_arena, sizeof(*ag))) == NULL ||
	    (ag->ag_name = dt_arena_strndup(&ps->ps_arena, an->dn_name, strlen(an->dn_name))) ==
		NULL)
		dt_cnomem(cg->cg_pcb);
	if (dt_pstate_insert(ps, key, ag) != 0)
		dt_cnomem(cg->cg_pcb);
	ps->ps_aggs[ps->ps_naggs++] = ag;
	ag->ag_id = ps->ps_naggs;
	ag->ag_fn = (dt_aggfn_t)fn;
	memcpy(ag->ag_args, id->di_aggargs, sizeof(ag->ag_args));
	ag->ag_nkeys = id->di_nkeys > 0 ? id->di_nkeys : 0;
	for (int i = 0; i < ag->ag_nkeys; i++, keys = keys != NULL ? keys->dn_next : NULL) {
		if (!key_rec(cg, id->di_keys[i], keys, &off, &ag->ag_keys[i]))
			cg_error(cg, call, "@%s: keys of this type are not supported yet",
				 an->dn_name);
		ag->ag_keys[i].r_tname = type_name(cg, &ps->ps_arena, id->di_keys[i]);
	}
	ag->ag_keysize = off ? off : 8;
	switch (fn) {
	case DT_AGG_COUNT:
		ag->ag_nbuckets = 0;
		ag->ag_valsize = 8;
		break;
	case DT_AGG_STDDEV: ag->ag_valsize = 32; break;
	case DT_AGG_QUANTIZE: ag->ag_nbuckets = DT_QUANTIZE_NBUCKETS; break;
	case DT_AGG_LQUANTIZE: ag->ag_nbuckets = (uint32_t)ag->ag_args[1] + 2; break;
	case DT_AGG_LLQUANTIZE: {
		dt_llq_order_t o[DT_LLQUANTIZE_MAXORDERS];
		int n;

		if (ag->ag_args[2] - ag->ag_args[1] >= DT_LLQUANTIZE_MAXORDERS)
			cg_limit(cg, call,
				 "llquantize( ) of more than %d orders of magnitude is not "
				 "supported",
				 DT_LLQUANTIZE_MAXORDERS);
		ag->ag_nbuckets = dt_llq_orders(ag->ag_args, o, &n);
		if (ag->ag_nbuckets <= 4096 &&
		    (ag->ag_llqval = dt_arena_alloc(&ps->ps_arena, 8 * ag->ag_nbuckets)) == NULL)
			dt_cnomem(cg->cg_pcb);
		/* what the consumer labels each bucket with: its lower bound */
		for (uint32_t b = 0; ag->ag_llqval != NULL && b < ag->ag_nbuckets; b++)
			ag->ag_llqval[b] = o[n - 1].lo_this; /* the top bucket, unless below */
		for (int i = 0; ag->ag_llqval != NULL && i < n; i++)
			for (uint32_t b = o[i].lo_base, k = 0;
			     k < (uint32_t)((o[i].lo_this - o[i].lo_last) / o[i].lo_width);
			     b++, k++)
				ag->ag_llqval[b] = o[i].lo_last + (int64_t)k * o[i].lo_width;
		if (ag->ag_llqval != NULL)
			ag->ag_llqval[0] = o[0].lo_last; /* counts what is below it */
		break;
	}
	default: ag->ag_valsize = 16; break;
	}
	if (ag->ag_nbuckets > 0)
		ag->ag_valsize = 8 * (1 + ag->ag_nbuckets);
	if (ag->ag_valsize > 8 * 4096)
		cg_limit(cg, call, "@%s: %u buckets is more than BPF maps hold (4095)", an->dn_name,
			 ag->ag_nbuckets);
	if (ag->ag_valsize > ps->ps_aggzero)
		ps->ps_aggzero = ag->ag_valsize;
	return ag;
}

/* r3 = floor(log2(r4)) for r4 > 0 (r4 and r5 are clobbered). */
static void emit_log2(dt_cg_t *cg)
{
	emit(cg, KS_MOV64_IMM(R3, 0));
	for (int sh = 32; sh >= 1; sh /= 2) {
		int skip = label(cg);

		emit(cg, KS_MOV64_REG(R5, R4));
		emit(cg, KS_ALU64_IMM(BPF_RSH, R5, sh));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R5, 0, 0), skip);
		emit(cg, KS_MOV64_REG(R4, R5));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R3, sh));
		place(cg, skip);
	}
}

/* r3 = the bucket of the value in r1, for a (l)(l)quantize aggregation. */
static void bucket_index(dt_cg_t *cg, const dt_agg_t *ag)
{
	int done = label(cg);

	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		int neg = label(cg), pos = label(cg);

		emit(cg, KS_MOV64_IMM(R3, DT_QUANTIZE_ZERO));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), done);
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R1, 0, 0), neg);
		emit(cg, KS_MOV64_REG(R4, R1));
		emit_log2(cg); /* 1 goes in bucket 64, 2 and 3 in 65... */
		emit(cg, KS_ALU64_IMM(BPF_ADD, R3, DT_QUANTIZE_ZERO + 1));
		jump(cg, pos);
		place(cg, neg); /* -1 in bucket 62, -2 and -3 in 61... */
		emit(cg, KS_MOV64_REG(R4, R1));
		emit(cg, KS_ALU64_IMM(BPF_NEG, R4, 0));
		emit_log2(cg);
		emit(cg, KS_MOV64_REG(R4, R3));
		emit(cg, KS_MOV64_IMM(R3, DT_QUANTIZE_ZERO - 1));
		emit(cg, KS_ALU64_REG(BPF_SUB, R3, R4));
		emit_to(cg, KS_JMP_IMM(BPF_JSGE, R3, 0, 0), done);
		emit(cg, KS_MOV64_IMM(R3, 0));
		jump(cg, done);
		place(cg, pos);
	} else if (ag->ag_fn == DT_AGG_LQUANTIZE) {
		int64_t base = ag->ag_args[0], levels = ag->ag_args[1], step = ag->ag_args[2];
		int in = label(cg);

		emit(cg, KS_MOV64_IMM(R3, 0));
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R1, (int32_t)base, 0), done);
		emit(cg, KS_MOV64_IMM(R3, (int32_t)(levels + 1)));
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R1, (int32_t)(base + levels * step), 0), in);
		jump(cg, done);
		place(cg, in);
		emit(cg, KS_MOV64_REG(R3, R1));
		emit(cg, KS_ALU64_IMM(BPF_SUB, R3, (int32_t)base));
		emit(cg, KS_ALU64_IMM(BPF_DIV, R3, (int32_t)step));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R3, 1));
	} else { /* llquantize: the orders of magnitude, unrolled */
		dt_llq_order_t o[DT_LLQUANTIZE_MAXORDERS];
		int n;
		uint32_t top = dt_llq_orders(ag->ag_args, o, &n) - 1;

		emit(cg, KS_MOV64_IMM(R3, 0));
		emit_imm64(cg, R4, (uint64_t)o[0].lo_last);
		emit_to(cg, KS_JMP_REG(BPF_JSLT, R1, R4, 0), done);
		for (int i = 0; i < n; i++) {
			int next = label(cg);

			emit_imm64(cg, R4, (uint64_t)o[i].lo_this);
			emit_to(cg, KS_JMP_REG(BPF_JSGE, R1, R4, 0), next);
			emit(cg, KS_MOV64_REG(R3, R1));
			emit_imm64(cg, R4, (uint64_t)o[i].lo_last);
			emit(cg, KS_ALU64_REG(BPF_SUB, R3, R4));
			emit_imm64(cg, R4, (uint64_t)o[i].lo_width);
			emit(cg, KS_ALU64_REG(BPF_DIV, R3, R4));
			emit(cg, KS_ALU64_IMM(BPF_ADD, R3, (int32_t)o[i].lo_base));
			jump(cg, done);
			place(cg, next);
		}
		emit(cg, KS_MOV64_IMM(R3, (int32_t)top));
	}
	place(cg, done);
	{ /* the verifier wants the index bounded: it is, but say so */
		int ok = label(cg);

		emit_to(cg, KS_JMP_IMM(BPF_JLE, R3, (int32_t)(ag->ag_nbuckets - 1), 0), ok);
		emit(cg, KS_MOV64_IMM(R3, (int32_t)(ag->ag_nbuckets - 1)));
		place(cg, ok);
	}
}

/* 128-bit sum of squares: [r9+16] (low), [r9+24] (high) += r1 * r1. */
static void add_square(dt_cg_t *cg)
{
	int pos = label(cg), nc1 = label(cg), nc2 = label(cg);

	emit(cg, KS_MOV64_REG(R3, R1)); /* a = |x| (2^63 for INT64_MIN, as unsigned) */
	emit_to(cg, KS_JMP_IMM(BPF_JSGE, R3, 0, 0), pos);
	emit(cg, KS_ALU64_IMM(BPF_NEG, R3, 0));
	place(cg, pos);
	emit(cg, KS_MOV64_REG(R4, R3));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R4, 32)); /* ah */
	emit(cg, KS_ALU64_IMM(BPF_LSH, R3, 32));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R3, 32)); /* al */
	emit(cg, KS_MOV64_REG(R5, R3));
	emit(cg, KS_ALU64_REG(BPF_MUL, R5, R3)); /* al*al */
	emit(cg, KS_MOV64_REG(R0, R4));
	emit(cg, KS_ALU64_REG(BPF_MUL, R0, R3)); /* ah*al */
	emit(cg, KS_ALU64_REG(BPF_MUL, R4, R4)); /* ah*ah: the high word */
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_ALU64_IMM(BPF_LSH, R3, 33));
	emit(cg, KS_ALU64_REG(BPF_ADD, R3, R5)); /* the low word */
	emit_to(cg, KS_JMP_REG(BPF_JGE, R3, R5, 0), nc1);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R4, 1));
	place(cg, nc1);
	emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 31));
	emit(cg, KS_ALU64_REG(BPF_ADD, R4, R0));
	emit(cg, KS_LDX_MEM(BPF_DW, R5, R9, 16));
	emit(cg, KS_ALU64_REG(BPF_ADD, R5, R3));
	emit(cg, KS_STX_MEM(BPF_DW, R9, R5, 16));
	emit_to(cg, KS_JMP_REG(BPF_JGE, R5, R3, 0), nc2);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R4, 1));
	place(cg, nc2);
	emit(cg, KS_LDX_MEM(BPF_DW, R5, R9, 24));
	emit(cg, KS_ALU64_REG(BPF_ADD, R5, R4));
	emit(cg, KS_STX_MEM(BPF_DW, R9, R5, 24));
}

/*
 * The map key of @name[keys] in the scratch key buffer: the aggregation's
 * id (the aggregations of a shape share a map: dt_program.h), then the keys
 * at ag_keys' offsets after it.  The key's layout is made here only.
 */
static void agg_key(dt_cg_t *cg, const dt_agg_t *ag, dt_node_t *keys)
{
	int nk = dt_cg_eval_keys(cg, keys);
	uint32_t size = DT_AGG_IDSIZE + ag->ag_keysize;

	dt_cg_zero_key(cg, size);
	emit_sa(cg, KS_ST_MEM(BPF_DW, R8, 0, (int32_t)ag->ag_id), SA(DT_SR_KEY, 0));
	dt_cg_store_keys(cg, keys, nk, DT_AGG_IDSIZE);
	if (size > cg->cg_ps->ps_keysize)
		cg->cg_ps->ps_keysize = size;
}

/*
 * @name[keys] = f(args): the entry, created zeroed if new (a full
 * aggregation counts a drop), then this CPU's slot of it updated.  Sums and buckets are
 * atomic adds: another program may run on this CPU between our load and
 * store (uprobe programs are preemptible).
 */
static void cg_aggregate(dt_cg_t *cg, dt_node_t *s)
{
	dt_node_t *lhs = s->dn_left, *call = s->dn_right;
	dt_node_t *an = lhs->dn_kind == DT_N_INDEX ? lhs->dn_left : lhs;
	dt_node_t *keys = lhs->dn_kind == DT_N_INDEX ? lhs->dn_args : NULL;
	dt_agg_t *ag = agg_of(cg, an, keys, call);
	int incr_arg = ag->ag_fn == DT_AGG_QUANTIZE	? 1
		       : ag->ag_fn == DT_AGG_LQUANTIZE	? 4
		       : ag->ag_fn == DT_AGG_LLQUANTIZE ? 5
							: -1;
	dt_node_t *x = call->dn_args, *incr = NULL;
	int drop = label(cg), done = label(cg);
	uint32_t k = SA(DT_SR_KEY, 0);

	if (incr_arg > 0)
		for (incr = x; incr != NULL && incr_arg-- > 0;)
			incr = incr->dn_next;
	if (x != NULL) {
		dt_cg_expr(cg, x);
		push(cg, x);
	}
	if (incr != NULL) {
		dt_cg_expr(cg, incr);
		push(cg, incr);
	}
	agg_key(cg, ag, keys);
	dt_cg_get_or_make(cg, DT_MAP_AGG(ag->ag_id), k,
			  drop); /* a new entry: zeroed from dt_zero */
	/* this CPU's slot of the entry (its value holds every CPU's, in CPU order) */
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_CALL(BPF_FUNC_get_smp_processor_id));
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R0, 0, 0), drop);
	dt_frag_reloc(cg->cg_fr, DT_RL_NCPUS, 0);
	emit(cg, KS_ALU64_IMM(BPF_MUL, R0, (int32_t)ag->ag_valsize));
	emit(cg, KS_ALU64_REG(BPF_ADD, R9, R0));
	if (incr != NULL)
		pop(cg, R2);
	else
		emit(cg, KS_MOV64_IMM(R2, 1));
	if (x != NULL)
		pop(cg, R1);
	if (ag->ag_fn == DT_AGG_MIN || ag->ag_fn == DT_AGG_MAX) {
		int set = label(cg), keep = label(cg);

		emit(cg, KS_LDX_MEM(BPF_DW, R3, R9, 0));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R3, 0, 0), set);
		emit(cg, KS_LDX_MEM(BPF_DW, R4, R9, 8));
		emit_to(cg, KS_JMP_REG(ag->ag_fn == DT_AGG_MIN ? BPF_JSGE : BPF_JSLE, R1, R4, 0),
			keep);
		place(cg, set);
		emit(cg, KS_STX_MEM(BPF_DW, R9, R1, 8));
		place(cg, keep);
	}
	emit(cg, KS_MOV64_IMM(R3, 1));
	emit(cg, KS_ATOMIC_ADD64(R9, R3, 0));
	switch (ag->ag_fn) {
	case DT_AGG_SUM:
	case DT_AGG_AVG: emit(cg, KS_ATOMIC_ADD64(R9, R1, 8)); break;
	case DT_AGG_STDDEV:
		emit(cg, KS_ATOMIC_ADD64(R9, R1, 8));
		add_square(cg);
		break;
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		bucket_index(cg, ag);
		emit(cg, KS_ALU64_IMM(BPF_LSH, R3, 3));
		emit(cg, KS_ALU64_REG(BPF_ADD, R9, R3));
		emit(cg, KS_ATOMIC_ADD64(R9, R2, 8));
		break;
	default: break;
	}
	jump(cg, done);
	place(cg, drop);
	dt_cg_count_drop(cg, DT_DROP_AGG);
	place(cg, done);
}

/* ---------------------------------------------------------------- actions */

static int add_rec(dt_cg_t *cg, dt_rkind_t kind, uint32_t size, bool sign)
{
	dt_stmt_t *st = cg->cg_st;
	uint32_t store = kind == DT_RK_INT ? 8 : size;
	uint32_t off = cg->cg_recoff;

	cg->cg_recoff += (store + 7) & ~7u;
	if (dt_grow(&st->st_recs, &st->st_reccap, (size_t)st->st_nrecs, sizeof(dt_rec_t), 8) != 0)
		dt_cnomem(cg->cg_pcb);
	st->st_recs[st->st_nrecs++] =
	    (dt_rec_t){ .r_off = off, .r_size = size, .r_kind = kind, .r_signed = sign };
	return (int)off;
}

static void add_act(dt_cg_t *cg, dt_akind_t kind, const char *fmt, int rec0);
static void record_value(dt_cg_t *cg, dt_node_t *n);

/* printa, clear, trunc, normalize, denormalize: records the consumer acts on. */
static void agg_action(dt_cg_t *cg, dt_node_t *s, dt_akind_t kind)
{
	dt_node_t *a = s->dn_args, *n = NULL;
	const char *fmt = NULL;
	int rec0 = cg->cg_st->st_nrecs, naggs = 0;
	uint32_t ids[DT_MAXPROBEARGS + 1];

	if (kind == DT_A_PRINTA && a != NULL && a->dn_kind != DT_N_AGG) {
		fmt = a->dn_string;
		a = a->dn_next;
	}
	for (; a != NULL && a->dn_kind == DT_N_AGG; a = a->dn_next)
		if (naggs < (int)(sizeof(ids) / sizeof(ids[0])))
			ids[naggs++] = agg_of(cg, a, NULL, s)->ag_id;
	n = a; /* trunc's and normalize's count */
	if (n != NULL)
		record_value(cg, n);
	add_act(cg, kind, fmt, rec0);
	{
		dt_act_t *act = &cg->cg_st->st_acts[cg->cg_st->st_nacts - 1];
		uint32_t *copy =
		    dt_arena_alloc(&cg->cg_ps->ps_arena, sizeof(uint32_t) * (size_t)naggs);

		if (copy == NULL)
			dt_cnomem(cg->cg_pcb);
		memcpy(copy, ids, sizeof(uint32_t) * (size_t)naggs);
		act->a_aggs = copy;
		act->a_naggs = naggs;
	}
	cg->cg_st->st_data = true;
}

static void add_act(dt_cg_t *cg, dt_akind_t kind, const char *fmt, int rec0)
{
	dt_stmt_t *st = cg->cg_st;

	if (dt_grow(&st->st_acts, &st->st_actcap, (size_t)st->st_nacts, sizeof(dt_act_t), 8) != 0)
		dt_cnomem(cg->cg_pcb);
	st->st_acts[st->st_nacts++] =
	    (dt_act_t){ kind, fmt, rec0, st->st_nrecs - rec0, NULL, 0, NULL };
}

/*
 * Record a struct or union's bytes: a variable's (a dynamic one absent
 * reads as zeros, as its members do) or memory's (*p, p->m: a bad address
 * faults).  Of 1, 2, 4 or 8 bytes it is recorded as an integer of that
 * size and printed as one, as illumos's dt_consume prints a record by its
 * size alone; any other size as bytes (a string if they look like one,
 * else a dump, as dt_print_bytes).
 */
static void record_sou(dt_cg_t *cg, dt_node_t *n)
{
	size_t sz = vsize(cg, n->dn_type);
	bool asint = sz == 1 || sz == 2 || sz == 4 || sz == 8;
	int off, ok = label(cg);

	if (sz == 0 || sz > 4096)
		cg_limit(cg, n, "a traced struct or union must have 1 to 4096 bytes");
	off = add_rec(cg, asint ? DT_RK_INT : DT_RK_BYTES, (uint32_t)sz, false);
	/* printf's %Le... formats it as a long double; trace() prints its bytes (dt_print_bytes) */
	cg->cg_st->st_recs[cg->cg_st->st_nrecs - 1].r_float = dt_cg_is_ldouble(n->dn_type);
	if (asint)
		emit(cg, KS_ST_MEM(BPF_DW, R8, (int16_t)off, 0));
	if (dt_cg_xlate_whole(cg, n)) { /* illumos dt_cg_xlate_expand: built in a temporary */
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		return;
	}
	if (dt_cg_is_memory(n)) { /* *p, p->m, (*p).m, p->a.b: the process's or scratch memory */
		dt_cg_mem_address(cg, n);
		emit(cg, KS_MOV64_REG(R9, R0));
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
		if (dt_cg_may_scratch(n))
			dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
		else
			emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
		dt_cg_fault(cg, DT_FLT_BADADDR, R9);
		place(cg, ok);
		return;
	}
	if (!dt_cg_names_variable(n)) {
		cg_error(cg, n, "values of this type cannot be traced yet");
		return;
	}
	{
		lval_t lv = dt_cg_lvalue_of(cg, n);
		const dt_var_t *v = lv.lv_var;

		if (lv.lv_nidx > 0) /* pts[i], m[i]: the element's offset, kept */
			dt_cg_elem_offset(cg, &lv);
		if (lv.lv_nidx > 0 && (v->v_kind == V_GLOBAL || v->v_kind == V_THIS)) {
			int base;
			uint32_t at = dt_cg_var_place(cg, v, &base);

			dt_cg_elem_address(cg, at, base);
			emit(cg, KS_MOV64_REG(R3, R1));
		} else if (v->v_kind == V_GLOBAL || v->v_kind == V_THIS) {
			int base;
			uint32_t at = dt_cg_var_place(cg, v, &base) + lv.lv_moff;

			emit(cg, KS_MOV64_REG(R3, base));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R3, IMM(at)), at);
		} else {
			int have = label(cg);

			if (lv.lv_nidx > 0)
				push(cg, n);
			dt_cg_dyn_key(cg, v, lv.lv_keys);
			emit_map(cg, R1, dt_cg_dvar_map(v));
			emit(cg, KS_MOV64_REG(R2, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
			emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
			emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
			dt_cg_emit_lookup0(cg, DT_MAP_ZERO); /* absent: its zeros */
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
			place(cg, have);
			emit(cg, KS_MOV64_REG(R3, R0));
			if (lv.lv_nidx > 0) {
				pop(cg, R1);
				emit(cg, KS_ALU64_REG(BPF_ADD, R3, R1));
			} else if (lv.lv_moff != 0) {
				emit(cg, KS_ALU64_IMM(BPF_ADD, R3, (int32_t)lv.lv_moff));
			}
		}
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		place(cg, ok);
	}
}

/*
 * uaddr(a), ufunc(a), usym(a), umod(a): the process ID and the address, as
 * illumos records them (the consumer names them, dt_sym.c).
 */
static void record_usym(dt_cg_t *cg, dt_node_t *n, int kind)
{
	int off = add_rec(cg, DT_RK_USYM, 16, false);

	cg->cg_st->st_recs[cg->cg_st->st_nrecs - 1].r_sym = kind;
	dt_cg_expr(cg, n->dn_args);
	emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)(off + 8)));
	dt_cg_sym_pid(cg, kind);
	emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off));
}

/* The name of type t, D's spelling, in arena a (for dtrace_consume's records). */
static const char *type_name(dt_cg_t *cg, dt_arena_t *a, const dt_type_t *t)
{
	char buf[512];
	const char *s;

	if (t == NULL)
		return NULL;
	dt_type_name(t, buf, sizeof(buf));
	if ((s = dt_arena_strndup(a, buf, strlen(buf))) == NULL)
		dt_cnomem(cg->cg_pcb);
	return s;
}

static void record_value1(dt_cg_t *cg, dt_node_t *n);

/* Record the value of n (in r0 after this) in the clause's record, with its type's name. */
static void record_value(dt_cg_t *cg, dt_node_t *n)
{
	int i = cg->cg_st->st_nrecs;

	record_value1(cg, n);
	if (cg->cg_st->st_nrecs > i)
		cg->cg_st->st_recs[i].r_tname = type_name(cg, cg->cg_pcb->pcb_arena, n->dn_type);
}

static void record_value1(dt_cg_t *cg, dt_node_t *n)
{
	const dt_type_t *t = n->dn_type;
	int sym = dt_cg_usym_kind(n);

	if (sym >= 0) {
		record_usym(cg, n, sym);
		return;
	}
	if (dt_cg_stack_kind(n) >= 0) {
		uint32_t nf, sz = dt_cg_stack_size(cg, n, &nf);
		int off = add_rec(cg, DT_RK_STACK, sz, false);
		dt_rec_t *r = &cg->cg_st->st_recs[cg->cg_st->st_nrecs - 1];

		r->r_sym = dt_cg_stack_kind(n);
		r->r_nframes = nf;
		dt_cg_stack_into(cg, n, SA(DT_SR_REC, (uint32_t)off));
		return;
	}

	/*
	 * a struct or union; an array a variable holds (char name[8]), as
	 * illumos records its bytes; a long double (by reference, as there)
	 */
	if (dt_type_is_sou(t) || dt_cg_is_ldouble(t) ||
	    (dt_cg_is_blob(t) && !dt_cg_is_memory(n) && dt_cg_names_variable(n))) {
		record_sou(cg, n);
		return;
	}
	dt_cg_expr(cg, n);
	if (is_string(t)) {
		int off = add_rec(cg, DT_RK_STR, cg->cg_strsize, false);

		dt_cg_copy_string(cg, R8, (uint32_t)off);
	} else if (dt_type_is_scalar(t)) {
		size_t sz = tsize(t);
		int off = add_rec(cg, DT_RK_INT, (uint32_t)(sz ? sz : 8),
				  dt_type_is_int(t) && dt_type_is_signed(t));

		emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off));
	} else if (dt_cg_is_float(t)) {
		/* a float's or double's bits, as illumos records them (its size) */
		int off = add_rec(cg, DT_RK_INT, (uint32_t)tsize(t), false);

		cg->cg_st->st_recs[cg->cg_st->st_nrecs - 1].r_float = true;
		emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off));
	} else {
		cg_error(cg, n, "values of this type cannot be traced yet");
	}
}

void dt_cg_a_trace(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs;

	(void)arg;
	record_value(cg, s->dn_args);
	add_act(cg, DT_A_TRACE, NULL, rec0);
	cg->cg_st->st_data = true;
}

/*
 * The conversion character the format gives its argument i (from 0), or
 * 0: widths and precisions given as * take an argument each.  *wide: it
 * has an l or w (%ls, %ws: a wide string).
 */
static char conv_of(const char *f, int i, bool *wide)
{
	int n = 0;

	while ((f = strchr(f, '%')) != NULL) {
		if (*++f == '%') {
			f++;
			continue;
		}
		for (; *f != '\0' && strchr("#0- +'", *f) != NULL; f++)
			;
		for (; *f == '*' || *f == '.' || *f == '?' || (*f >= '0' && *f <= '9'); f++)
			if (*f == '*' && n++ == i)
				return '*';
		*wide = false;
		for (; *f != '\0' && strchr("hlLwjzt", *f) != NULL; f++)
			if (*f == 'l' || *f == 'w')
				*wide = true;
		if (*f == '\0')
			return 0;
		if (n++ == i)
			return *f;
		f++;
	}
	return 0;
}

void dt_cg_a_printf(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs, i = 0;

	(void)arg;
	for (dt_node_t *a = s->dn_args->dn_next; a != NULL; a = a->dn_next, i++) {
		bool wide = false;
		char c = conv_of(s->dn_args->dn_string, i, &wide);

		/*
		 * %ls of a wchar_t [] (a variable's or memory's): its bytes, as
		 * illumos records an array (pfprint_wstr ends it at its size).
		 */
		if (c == 's' && wide) {
			record_sou(cg, a);
			continue;
		}
		/* %s of a char pointer: the string it points to, as stringof() */
		if ((c == 's' || c == 'S' || c == 'I') && !is_string(a->dn_type) &&
		    dt_type_is_ptr(a->dn_type)) {
			int off = add_rec(cg, DT_RK_STR, cg->cg_strsize, false);

			dt_cg_str_operand(cg, a);
			dt_cg_copy_string(cg, R8, (uint32_t)off);
			continue;
		}
		record_value(cg, a);
	}
	add_act(cg, DT_A_PRINTF, s->dn_args->dn_string, rec0);
	cg->cg_st->st_data = true;
}

/* printa, clear, trunc, normalize, denormalize (arg: the dt_akind_t) */
void dt_cg_a_agg(dt_cg_t *cg, dt_node_t *s, int kind)
{
	agg_action(cg, s, (dt_akind_t)kind);
}

void dt_cg_a_exit(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs;

	(void)arg;
	dt_cg_expr(cg, s->dn_args);
	emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)add_rec(cg, DT_RK_INT, 4, true)));
	cg->cg_exits = true; /* draining once the record is out: cg_clause */
	add_act(cg, DT_A_EXIT, NULL, rec0);
	cg->cg_st->st_data = true;
}

/*
 * tracemem(addr, size[, dsize]): size bytes recorded; the consumer prints
 * dsize of them (illumos' DTRACEACT_TRACEMEM_DYNSIZE record: all of them
 * when dsize is 0 or more than size).
 */
void dt_cg_a_tracemem(dt_cg_t *cg, dt_node_t *s, int arg)
{
	dt_node_t *sz = s->dn_args->dn_next;
	int off, ok = label(cg), rec0 = cg->cg_st->st_nrecs;
	size_t vsz;

	(void)arg;
	if (!(sz->dn_flags & DT_NF_CONST) || sz->dn_value == 0 || sz->dn_value > 4096)
		cg_limit(cg, sz, "tracemem( ) needs a constant size from 1 to 4096");
	if (sz->dn_next != NULL) {
		dt_cg_expr(cg, sz->dn_next);
		emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)add_rec(cg, DT_RK_INT, 8, false)));
	}
	if (dt_cg_var_blob(cg, s->dn_args, &vsz)) {
		/* a variable's bytes: more than it holds faults at it (dtrace_canload) */
		off = add_rec(cg, DT_RK_MEM, (uint32_t)sz->dn_value, false);
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)sz->dn_value));
		emit_to(cg, KS_JMP_IMM(BPF_JLE, R2, (int32_t)vsz, 0), ok);
		emit(cg, KS_MOV64_IMM(R9, (int32_t)vsz)); /* the first byte past it */
		dt_cg_fault(cg, DT_FLT_BADADDR, R9);
		place(cg, ok);
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		add_act(cg, DT_A_TRACEMEM, NULL, rec0);
		cg->cg_st->st_data = true;
		return;
	}
	dt_cg_expr(cg, s->dn_args);
	off = add_rec(cg, DT_RK_MEM, (uint32_t)sz->dn_value, false);
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz->dn_value));
	if (dt_cg_may_scratch(s->dn_args))
		dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	add_act(cg, DT_A_TRACEMEM, NULL, rec0);
	cg->cg_st->st_data = true;
}

/*
 * print(p), as Oracle's dtrace 2 has it: the pointer, then the bytes of
 * what it points to (at most 4096), printed by its type by the consumer;
 * a bad address faults.
 */
void dt_cg_a_print(dt_cg_t *cg, dt_node_t *s, int arg)
{
	const dt_type_t *pt = dt_type_resolve(s->dn_args->dn_type);
	const dt_type_t *t = pt != NULL ? pt->dtt_ref : NULL;
	size_t sz = t != NULL ? dt_type_size(t) : 0;
	int rec0 = cg->cg_st->st_nrecs, poff, off, ok = label(cg);

	(void)arg;
	if (sz == 0 || sz > 4096)
		cg_limit(cg, s->dn_args, "print( ) can print 1 to 4096 bytes");
	dt_cg_expr(cg, s->dn_args);
	poff = add_rec(cg, DT_RK_INT, 8, false);
	emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)poff));
	off = add_rec(cg, DT_RK_MEM, (uint32_t)sz, false);
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
	if (dt_cg_may_scratch(s->dn_args)) /* alloca()'d, as Oracle's tests print */
		dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	add_act(cg, DT_A_PRINT, NULL, rec0);
	cg->cg_st->st_acts[cg->cg_st->st_nacts - 1].a_type = t;
	cg->cg_st->st_data = true;
}

/*
 * raise(sig): the signal to the current thread, as illumos does when the
 * probe's thread returns to user mode (bpf_send_signal_thread, at once);
 * a signal out of 1..64 is an illegal operation.  stop(): SIGSTOP to the
 * current process (illumos stops it).  Neither records anything.
 */
void dt_cg_a_signal(dt_cg_t *cg, dt_node_t *s, int stop)
{
	int ok = label(cg), bad = label(cg);

	if (stop) {
		emit(cg, KS_MOV64_IMM(R1, 19)); /* SIGSTOP */
		emit(cg, KS_CALL(BPF_FUNC_send_signal));
	} else {
		dt_cg_expr(cg, s->dn_args);
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R0, 1, 0), bad);
		emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 64, 0), ok);
		place(cg, bad);
		dt_cg_fault(cg, DT_FLT_ILLOP, -1);
		place(cg, ok);
		emit(cg, KS_MOV64_REG(R1, R0));
		emit(cg, KS_CALL(BPF_FUNC_send_signal_thread));
	}
	cg->cg_st->st_destructive = true;
}

/*
 * system(fmt, ...), freopen(fmt, ...): the values as printf records them;
 * the consumer formats the string and runs the command (or reopens its
 * output) when it reads the record, in order with the other output.
 */
void dt_cg_a_consumer_fmt(dt_cg_t *cg, dt_node_t *s, int kind)
{
	int rec0 = cg->cg_st->st_nrecs;

	for (dt_node_t *a = s->dn_args->dn_next; a != NULL; a = a->dn_next)
		record_value(cg, a);
	add_act(cg, (dt_akind_t)kind, s->dn_args->dn_string, rec0);
	cg->cg_st->st_data = true;
	cg->cg_st->st_destructive = true;
}

/* ftruncate(): the consumer truncates its output file */
void dt_cg_a_ftruncate(dt_cg_t *cg, dt_node_t *s, int arg)
{
	(void)s, (void)arg;
	add_act(cg, DT_A_FTRUNCATE, NULL, cg->cg_st->st_nrecs);
	cg->cg_st->st_data = true;
}

/* setopt(name[, value]): the consumer sets the option when it reads the record */
void dt_cg_a_setopt(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs;

	(void)arg;
	for (dt_node_t *a = s->dn_args; a != NULL; a = a->dn_next) {
		if (!is_string(a->dn_type))
			cg_error(cg, a, "setopt( ) takes strings");
		record_value(cg, a);
	}
	add_act(cg, DT_A_SETOPT, NULL, rec0);
	cg->cg_st->st_data = true;
}

#define USER_END 0x00007ffffffff000ull /* x86-64 TASK_SIZE_MAX: no user byte at or above */

/*
 * Fault as illumos' dtrace_copycheck does before copying out: a bad
 * address on addr when addr + size wraps or reaches the kernel's half.
 * The address is in slot s_addr, the size in r0 (kept).
 */
static void copy_check(dt_cg_t *cg, int16_t s_addr)
{
	int ok = label(cg), bad = label(cg);

	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_addr));
	emit(cg, KS_MOV64_REG(R1, R9));
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
	emit_to(cg, KS_JMP_REG(BPF_JLT, R1, R9, 0), bad);
	emit_imm64(cg, R2, USER_END);
	emit_to(cg, KS_JMP_REG(BPF_JLE, R1, R2, 0), ok);
	place(cg, bad);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
}

/* bpf_probe_write_user(addr in slot s_addr, r2, r3 bytes); a bad address faults on addr */
static void write_user(dt_cg_t *cg, int16_t s_addr)
{
	int ok = label(cg);

	emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, s_addr));
	emit(cg, KS_CALL(BPF_FUNC_probe_write_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_addr));
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	cg->cg_st->st_destructive = true;
	cg->cg_st->st_writes_user = true;
}

/* Operand e of call s (a string operand when str) pushed: its stack slot. */
static int16_t operand_slot(dt_cg_t *cg, dt_node_t *s, dt_node_t *e, bool str)
{
	if (str)
		dt_cg_str_operand(cg, e);
	else
		dt_cg_expr(cg, e);
	push(cg, s);
	return dt_cg_slot_at(cg->cg_sp);
}

/*
 * copyout(buf, addr, nbytes): nbytes of buf (scratch memory, or the
 * process's) to the process's address addr, as illumos' DIF_SUBR_COPYOUT
 * (destructive: -w).  bpf_probe_write_user copies from memory the
 * verifier knows, so buf is first read into the second half of the alloca
 * region, which no allocation reaches: nbytes is at most scratchsize
 * ("out of scratch space" beyond).  0 bytes copy nothing; a bad buf or
 * addr is a bad address fault on it.
 */
static void copyout(dt_cg_t *cg, dt_node_t *s)
{
	dt_node_t *src = s->dn_args, *dst = src->dn_next, *len = dst->dn_next;
	uint32_t lim = dt_cg_scratch_use(cg),
		 tmp = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA + dt_cg_scratch_use(cg));
	int16_t s_src, s_addr, s_len;
	int done = label(cg), big = label(cg), ok = label(cg);

	s_src = operand_slot(cg, s, src, false);
	s_addr = operand_slot(cg, s, dst, false);
	s_len = operand_slot(cg, s, len, false);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
	copy_check(cg, s_addr);
	emit(cg, KS_LDX_MEM(BPF_DW, R2, FP, s_len));
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R2, (int32_t)lim, 0), big);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(tmp)), tmp);
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_src));
	dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_src));
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, big);
	dt_cg_fault(cg, DT_FLT_NOSCRATCH, -1);
	place(cg, ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_len));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R3, 0, 0), done); /* bounds the verifier sees */
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R3, (int32_t)lim, 0), done);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(tmp)), tmp);
	write_user(cg, s_addr);
	place(cg, done);
	cg->cg_sp -= 3;
}

/*
 * copyoutstr(str, addr, maxlen): str's bytes to its NUL, the NUL too, at
 * most maxlen of them, as illumos' dtrace_copystr (maxlen bytes of a
 * longer string are written without a NUL).  The length comes from a
 * kernel string copy into a temporary, the bytes from str itself.  A
 * maxlen of 0 copies nothing (illumos' copy loop writes a byte before it
 * counts, and so runs to the NUL).
 */
static void copyoutstr(dt_cg_t *cg, dt_node_t *s)
{
	dt_node_t *src = s->dn_args, *dst = src->dn_next, *len = dst->dn_next;
	uint32_t tmp;
	int16_t s_src, s_addr, s_len;
	int done = label(cg), cut = label(cg), go = label(cg);

	s_src = operand_slot(cg, s, src, true);
	s_addr = operand_slot(cg, s, dst, false);
	dt_cg_expr(cg, len);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
	copy_check(cg, s_addr);
	emit_to(cg, KS_JMP_IMM(BPF_JLE, R0, (int32_t)cg->cg_strsize, 0), cut);
	emit(cg, KS_MOV64_IMM(R0, (int32_t)cg->cg_strsize));
	place(cg, cut);
	push(cg, s);
	s_len = dt_cg_slot_at(cg->cg_sp);
	tmp = dt_cg_tmp_string(cg);
	emit(cg, KS_MOV64_REG(R2, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(tmp)), tmp);
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_src));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str)); /* the bytes with the NUL */
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_len));
	emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 0, 0), go);
	emit_to(cg, KS_JMP_REG(BPF_JGE, R0, R3, 0), go);
	emit(cg, KS_MOV64_REG(R3, R0)); /* the NUL came first */
	place(cg, go);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R3, 0, 0), done); /* bounds the verifier sees */
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R3, (int32_t)cg->cg_strsize, 0), done);
	emit(cg, KS_LDX_MEM(BPF_DW, R2, FP, s_src));
	write_user(cg, s_addr);
	place(cg, done);
	cg->cg_sp -= 3;
}

void dt_cg_a_copyout(dt_cg_t *cg, dt_node_t *s, int str)
{
	if (str)
		copyoutstr(cg, s);
	else
		copyout(cg, s);
}

/* chill(), breakpoint(), panic(): the kernel's, refused with what they would do */
void dt_cg_a_kernel_only(dt_cg_t *cg, dt_node_t *s, int arg)
{
	(void)arg;
	cg_error(cg, s,
		 "%s( ) is a kernel action (illumos: %s): it cannot be done from a BPF "
		 "program",
		 s->dn_name,
		 s->dn_ident->di_func->db_id == DT_B_CHILL ? "spin the CPU for a time"
		 : s->dn_ident->di_func->db_id == DT_B_PANIC
		     ? "panic the system"
		     : "stop the system in the kernel debugger");
}

static void stmt(dt_cg_t *cg, dt_node_t *s);

/* A statement's temporaries are free after it: what it keeps, it copied. */
void dt_cg_stmt(dt_cg_t *cg, dt_node_t *s)
{
	uint32_t mark = cg->cg_tmp;

	stmt(cg, s);
	cg->cg_tmp = mark;
}

static void stmt(dt_cg_t *cg, dt_node_t *s)
{
	if (s->dn_kind == DT_N_CALL) {
		const struct cg_builtin *g = dt_cg_generator(s);
		dt_bkind_t kind = s->dn_ident->di_func->db_kind;

		if (g != NULL && kind == DB_ACTION) {
			g->g_fn(cg, s, g->g_arg);
		} else if (dt_cg_usym_kind(s) >= 0 || dt_cg_stack_kind(s) >= 0) {
			/* ufunc(pc); ustack(); as actions: traced */
			int rec0 = cg->cg_st->st_nrecs;

			record_value(cg, s);
			add_act(cg, DT_A_TRACE, NULL, rec0);
			cg->cg_st->st_data = true;
		} else if (kind == DB_FUNC) /* a subroutine for its effect */
			dt_cg_call(cg, s);
		else
			cg_error(cg, s, "%s( ) is not supported yet", s->dn_name);
		return;
	}
	if (s->dn_kind == DT_N_BINARY && s->dn_left != NULL &&
	    (s->dn_left->dn_kind == DT_N_AGG ||
	     (s->dn_left->dn_kind == DT_N_INDEX && s->dn_left->dn_left->dn_kind == DT_N_AGG))) {
		cg_aggregate(cg, s);
		cg->cg_st->st_agg = true;
		return;
	}
	if (s->dn_kind == DT_N_BINARY && s->dn_op >= T_ASSIGN && s->dn_op <= T_SHR_EQ) {
		dt_cg_assign(cg, s, s->dn_left, s->dn_op, s->dn_right, false, true);
		return;
	}
	if ((s->dn_kind == DT_N_POSTFIX || s->dn_kind == DT_N_UNARY) &&
	    (s->dn_op == T_INC || s->dn_op == T_DEC)) {
		dt_cg_assign(cg, s, s->dn_left, s->dn_op, NULL, false, true);
		return;
	}
	dt_cg_expr(cg, s);
}

/* ---------------------------------------------------------------- speculations */

/*
 * A fault without an instruction offset: illumos sets CPU_DTRACE_ILLOP
 * outside DIF for a speculation id above nspec, and dtrace(1) then prints
 * no "at DIF offset" (dt_handle_err: offset -1).
 */
static void fault_nopc(dt_cg_t *cg, int kind)
{
	size_t at = here(cg);

	dt_cg_fault(cg, kind, -1);
	if (!cg->cg_fr->fr_oom && at + 1 < cg->cg_fr->fr_len)
		cg->cg_fr->fr_insns[at + 1].imm = (int32_t)DT_ERR_NOPC; /* dt_frag_fault's er_pc */
}

/* r0 = dt_spec's value (every slot), or a jump to none (r1-r5 clobbered). */
static void spec_slots(dt_cg_t *cg, int none)
{
	dt_cg_emit_lookup0(cg, DT_MAP_SPEC);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), none);
}

/*
 * The speculation id in r0, as illumos's dtrace_speculation_buffer takes
 * it: 0 (a speculation() that failed) jumps to none, silently; above nspec
 * is an illegal operation.  Then r9 = its slot's offset ((id - 1) * 8),
 * r0 = the slot's address and r1 = the slot, whose state must be ACTIVE
 * (else none).
 */
static void spec_active(dt_cg_t *cg, int none)
{
	int ok = label(cg);

	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), none);
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_ALU64_IMM(BPF_SUB, R9, 1)); /* 0 .. nspec - 1, checked so for the verifier */
	emit_to(cg, KS_JMP_IMM(BPF_JLT, R9, 0, 0), ok);
	dt_frag_reloc(cg->cg_fr, DT_RL_NSPEC, 0);
	fault_nopc(cg, DT_FLT_ILLOP);
	place(cg, ok);
	emit(cg, KS_ALU64_IMM(BPF_LSH, R9, 3));
	spec_slots(cg, none);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R9));
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R0, 0));
	emit(cg, KS_MOV64_REG(R2, R1));
	emit(cg, KS_ALU64_IMM(BPF_AND, R2, 0xff));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R2, DT_SPEC_ACTIVE, 0), none);
}

/* r1 = the tag of the speculation whose slot is in r1 and offset in r9 (DT_SPEC_TAG). */
static void spec_tag(dt_cg_t *cg)
{
	emit(cg, KS_ALU64_IMM(BPF_RSH, R1, 8));
	emit(cg, KS_ALU64_IMM(BPF_AND, R1, 0xffff));
	emit(cg, KS_ALU64_IMM(BPF_LSH, R1, 16));
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R2, 3));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R2, 1)); /* the id */
	emit(cg, KS_ALU64_REG(BPF_OR, R1, R2));
}

/*
 * speculation(), as illumos's dtrace_speculation: the first INACTIVE slot
 * becomes ACTIVE (compare and exchange, its generation one more) and its
 * id, from 1, is the value; none: 0, and a failure counted, "busy" if a
 * slot is being committed or discarded (the consumer has not cleaned it
 * yet), else "unavailable".  The loop, bounded by nspec, has one test
 * whose outcome the verifier cannot know, the exchange, and it jumps back
 * on failure: the verifier follows the taken slot to the end of the
 * program before it tries the next, so it keeps one pending branch, not
 * one per slot.  Busy is gathered without a branch: state bit 1 is set in
 * COMMITTING and DISCARDING only.
 */
void dt_cg_s_speculation(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int loop = label(cg), next = label(cg), fail = label(cg), unavail = label(cg);
	int zero = label(cg), done = label(cg);
	uint64_t nspec = dt_option_get(cg->cg_pcb->pcb_hdl, "nspec", 1);

	uint32_t id = dt_cg_tmp_string(cg);

	(void)arg;
	if (nspec > DT_SPEC_MAX) /* dtrace_go refuses it too, if raised after compiling */
		cg_limit(cg, n, "nspec is %llu: speculation( ) looks at every slot, at most %u",
			 (unsigned long long)nspec, DT_SPEC_MAX);
	if (++cg->cg_ps->ps_specsites * nspec > DT_SPEC_WALK)
		cg_limit(cg, n,
			 "%u speculation( ) calls with nspec %llu: the verifier would walk more "
			 "than %u slots",
			 cg->cg_ps->ps_specsites, (unsigned long long)nspec, DT_SPEC_WALK);
	spec_slots(cg, zero);
	emit(cg, KS_MOV64_REG(R1, R0));
	emit(cg, KS_MOV64_IMM(R3, 0)); /* busy */
	emit(cg, KS_MOV64_IMM(R9, 0));
	place(cg, loop);
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R9, 0, 0), fail);
	dt_frag_reloc(cg->cg_fr, DT_RL_NSPEC, 0);
	emit(cg, KS_MOV64_REG(R5, R9));
	emit(cg, KS_ALU64_IMM(BPF_LSH, R5, 3));
	emit(cg, KS_ALU64_REG(BPF_ADD, R5, R1)); /* the slot */
	emit(cg, KS_LDX_MEM(BPF_DW, R2, R5, 0));
	emit(cg, KS_MOV64_REG(R4, R2));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R4, 1));
	emit(cg, KS_ALU64_IMM(BPF_AND, R4, 1));
	emit(cg, KS_ALU64_REG(BPF_OR, R3, R4));
	emit(cg, KS_ALU64_IMM(BPF_AND, R2, -0x100)); /* expected: this generation, INACTIVE */
	emit(cg, KS_MOV64_REG(R4, R2));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R4, 0x100 + DT_SPEC_ACTIVE));
	emit(cg, KS_MOV64_REG(R0, R2));
	emit(cg, KS_ATOMIC_CMPXCHG64(R5, R4, 0));
	emit_to(cg, KS_JMP_REG(BPF_JNE, R0, R2, 0), next); /* not INACTIVE, or taken meanwhile */
	/*
	 * The id, through memory the verifier does not follow: as a known
	 * constant it would differ at done for each slot, and the verifier
	 * would walk the rest of the program once per slot taken.
	 */
	emit(cg, KS_ALU64_IMM(BPF_ADD, R9, 1));
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R9, OFF(id)), id);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(id)), id);
	jump(cg, done);
	place(cg, next);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R9, 1));
	jump(cg, loop);
	place(cg, fail);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R3, 0, 0), unavail);
	dt_cg_count_drop(cg, DT_DROP_SPECBUSY);
	jump(cg, zero);
	place(cg, unavail);
	dt_cg_count_drop(cg, DT_DROP_SPECUNAVAIL);
	place(cg, zero);
	emit(cg, KS_MOV64_IMM(R0, 0));
	place(cg, done);
}

/*
 * speculate(id): the clause's record goes to the speculation, its tag in
 * the record's header; a speculation that is not ACTIVE (0, committed,
 * discarded) takes nothing and the record is not sent (cg_clause).
 */
void dt_cg_a_speculate(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int none = label(cg);

	(void)arg;
	dt_cg_expr(cg, s->dn_args);
	spec_active(cg, none);
	spec_tag(cg);
	emit(cg, KS_STX_MEM(BPF_W, R8, R1, 4));
	place(cg, none);
	cg->cg_st->st_spec = true;
}

/*
 * commit(id), discard(id) (kind: DT_A_COMMIT, DT_A_DISCARD): an ACTIVE
 * speculation becomes COMMITTING or DISCARDING and the record carries its
 * tag, for the consumer to print or drop what it holds; anything else
 * records 0 and does nothing, as dtrace_speculation_commit and _discard.
 */
void dt_cg_a_commit(dt_cg_t *cg, dt_node_t *s, int kind)
{
	int none = label(cg), rec0 = cg->cg_st->st_nrecs, off;
	int to = kind == DT_A_COMMIT ? DT_SPEC_COMMITTING : DT_SPEC_DISCARDING;

	dt_cg_expr(cg, s->dn_args);
	off = add_rec(cg, DT_RK_INT, 4, false);
	emit(cg, KS_ST_MEM(BPF_DW, R8, (int16_t)off, 0));
	spec_active(cg, none);
	emit(cg, KS_MOV64_REG(R2, R1));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R2, to - DT_SPEC_ACTIVE));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R0, R1));
	emit(cg, KS_ATOMIC_CMPXCHG64(R3, R2, 0));
	emit_to(cg, KS_JMP_REG(BPF_JNE, R0, R1, 0), none); /* another CPU's commit or discard won */
	spec_tag(cg);
	emit(cg, KS_STX_MEM(BPF_DW, R8, R1, (int16_t)off));
	place(cg, none);
	add_act(cg, (dt_akind_t)kind, NULL, rec0);
	cg->cg_st->st_data = true;
}
