/*
 * dt_cg.c -- BPF code generation from the checked syntax tree, at compile
 * time: each clause once, as a fragment (dt_program.h) that linking
 * places in the program of every probe the clause enables.
 *
 * A probe's program is the prologue (dt_pstate_t's: it finds the state
 * and scratch values and checks the activity), then each of its clauses
 * in program order, then the shared subprograms its clauses call (string
 * compare, string length) as BPF-to-BPF functions.
 *
 * Registers: r6 the context (pt_regs), r7 the state value, r8 the
 * scratch value, r9 a callee-saved temporary.  An expression leaves its
 * value in r0: integers normalised to their type (sign- or zero-extended
 * to 64 bits), strings as a pointer to strsize bytes in a map value.
 * Operands wait in stack slots below r10 - 8 while the other side is
 * computed; helper calls clobber r1-r5.
 *
 * What only loading knows is left to relocations: map descriptors, the
 * place of each scratch region (a scratch address, SA(), names its
 * region and an offset in it), the EPID, kernel structure offsets.  What
 * depends on the probe (its arguments, its names) and the ERROR clauses
 * a fault runs are pseudo-instructions that linking expands.
 *
 * A fault (a bad address, a division by zero) stores what happened in the
 * scratch error record and jumps to the clause's fault block, which sends
 * the error record and runs the ERROR clauses: the clause is abandoned,
 * the probe's other clauses run.
 */

#include "dt_cg.h"
/* ---------------------------------------------------------------- faults */

/* The error record of a fault (addrreg: the address, or -1), then the fault block. */
void dt_cg_fault(dt_cg_t *cg, int kind, int addrreg)
{
	dt_frag_fault(cg->cg_fr, kind, addrreg, cg->cg_action, cg->cg_lfault);
	cg->cg_faults = true;
}

/*
 * Read sz bytes of user memory at the address in r0 into r0 (extended as
 * sign says); a bad address faults.
 */
static void load_user(dt_cg_t *cg, size_t sz, bool sign)
{
	dt_frag_load_user(cg->cg_fr, sz, sign, cg->cg_action, cg->cg_lfault);
	cg->cg_faults = true;
}

/*
 * r0 = the value of type t at the user address in r0: an array is not
 * read, it stands for its first element's address (as in C).
 */
/* A float or double: a value held as its bits (D has no floating-point arithmetic). */
bool dt_cg_is_float(const dt_type_t *t)
{
	const dt_type_t *r = t != NULL ? dt_type_resolve(t) : NULL;

	return r != NULL && r->dtt_kind == DT_TK_FLOAT && r->dtt_size <= 8;
}

static void load_value(dt_cg_t *cg, const dt_type_t *t)
{
	if (t != NULL && dt_type_resolve(t)->dtt_kind == DT_TK_ARRAY)
		return;
	load_user(cg, tsize(t),
		  dt_type_is_signed(t) && !dt_cg_is_float(t)); /* a float's bits as they are */
}

/* ---------------------------------------------------------------- scratch memory */

/*
 * alloca() and copyin() give out memory of the alloca region (DT_SR_ALLOCA,
 * dt_program.h), scratchsize bytes a clause (-x scratchsize, 4096 if not
 * set; illumos gives what is left of the buffer).  The first clause that
 * dt_cg_allocates fixes the size for the handle, as the first compile fixes
 * strsize.
 */
uint32_t dt_cg_scratch_limit(const dt_cg_t *cg)
{
	uint64_t s = dt_option_get(cg->cg_pcb->pcb_hdl, "scratchsize", 4096);

	if (cg->cg_ps->ps_scratchsize != 0)
		return cg->cg_ps->ps_scratchsize;
	return s < 8 ? 8 : s > 8192 ? 8192 : (uint32_t)((s + 7) & ~7ull);
}

/* The scratch size, fixed for the handle: the program has the alloca region. */
uint32_t dt_cg_scratch_use(dt_cg_t *cg)
{
	if (cg->cg_ps->ps_scratchsize == 0)
		cg->cg_ps->ps_scratchsize = dt_cg_scratch_limit(cg);
	return cg->cg_ps->ps_scratchsize;
}

/*
 * reg = the address of the alloca region's data as a number: a map value
 * pointer stored and read back (the verifier lets a privileged program
 * store one), so that it can be kept in variables, traced and compared.
 */
void dt_cg_alloca_base(dt_cg_t *cg, int reg)
{
	uint32_t w = SA(DT_SR_ALLOCA, DT_ALLOCA_WORD), d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);

	emit(cg, KS_MOV64_REG(reg, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, reg, IMM(d)), d);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, reg, OFF(w)), w);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, reg, R8, OFF(w)), w);
}

/*
 * Give out r0 bytes of the alloca region, as illumos: rounded up to 8, and
 * an "out of scratch space" fault past scratchsize.  Then r0 = the
 * allocation's offset in the data and r9 its size, each 0 to scratchsize
 * (bounds the verifier sees).
 */
void dt_cg_allocate(dt_cg_t *cg)
{
	uint32_t lim = dt_cg_scratch_use(cg), u = SA(DT_SR_ALLOCA, DT_ALLOCA_USED);
	int ok = label(cg), bad = label(cg);

	emit(cg, KS_MOV64_REG(R9, R0));
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R9, (int32_t)lim, 0), bad);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(u)), u);
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R0, (int32_t)lim, 0), bad);
	emit(cg, KS_MOV64_REG(R1, R9));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, 7));
	emit(cg, KS_ALU64_IMM(BPF_AND, R1, -8));
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
	emit_to(cg, KS_JMP_IMM(BPF_JLE, R1, (int32_t)lim, 0), ok);
	place(cg, bad);
	dt_cg_fault(cg, DT_FLT_NOSCRATCH, -1);
	place(cg, ok);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R1, OFF(u)), u);
}

/*
 * The destination of a copy into scratch memory (copyinto, bcopy): the
 * address in r0 must lie in what this clause allocated, with r9 bytes
 * after it (illumos' dtrace_inscratch), else a bad address fault on it.
 * Then r1 = a pointer to it the verifier can bound; r9 stays the size.
 */
void dt_cg_scratch_dest(dt_cg_t *cg)
{
	uint32_t lim = dt_cg_scratch_use(cg), u = SA(DT_SR_ALLOCA, DT_ALLOCA_USED),
		 d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
	int ok = label(cg), bad = label(cg);

	emit(cg, KS_MOV64_REG(R2, R0));
	dt_cg_alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_SUB, R2, R1)); /* the offset in the data */
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R2, (int32_t)lim, 0), bad);
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R9, (int32_t)lim, 0), bad);
	emit(cg, KS_MOV64_REG(R3, R2));
	emit(cg, KS_ALU64_REG(BPF_ADD, R3, R9));
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R4, R8, OFF(u)), u);
	emit_to(cg, KS_JMP_REG(BPF_JLE, R3, R4, 0), ok);
	place(cg, bad);
	emit(cg, KS_MOV64_REG(R9, R0));
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(d)), d);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R2));
}

#define KERNEL_HALF 0xffff800000000000ull /* x86-64: the kernel's addresses start here */

/*
 * Call helper (a probe_read_user one) on the source address in r3, or its
 * probe_read_kernel twin when r3 is in the kernel's half of the address
 * space: memory alloca() or copyin() gave, which D reads as illumos reads
 * its scratch memory, a variable's storage (&v.m), or what a variable
 * holding a kernel address points to (as illumos reads the kernel's
 * memory with the kernel privilege).  r4 clobbered.
 */
void dt_cg_read_any(dt_cg_t *cg, int helper)
{
	int user = label(cg), done = label(cg);
	int kernel = helper == BPF_FUNC_probe_read_user_str ? BPF_FUNC_probe_read_kernel_str
							    : BPF_FUNC_probe_read_kernel;

	emit_imm64(cg, R4, KERNEL_HALF);
	emit_to(cg, KS_JMP_REG(BPF_JLT, R3, R4, 0), user);
	emit(cg, KS_CALL(kernel));
	jump(cg, done);
	place(cg, user);
	emit(cg, KS_CALL(helper));
	place(cg, done);
}

/* Does n or a node below it (operands, condition, arguments) satisfy is? */
static bool any_node(const dt_node_t *n, bool (*is)(const dt_node_t *))
{
	if (n == NULL)
		return false;
	if (is(n) || any_node(n->dn_left, is) || any_node(n->dn_right, is) ||
	    any_node(n->dn_cond, is))
		return true;
	for (const dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next)
		if (any_node(a, is))
			return true;
	return false;
}

/* A call of alloca() or copyin(): the memory they give is scratch memory. */
static bool is_alloc(const dt_node_t *n)
{
	return n->dn_kind == DT_N_CALL && n->dn_ident != NULL && n->dn_ident->di_func != NULL &&
	       (n->dn_ident->di_func->db_id == DT_B_ALLOCA ||
		n->dn_ident->di_func->db_id == DT_B_COPYIN);
}

/* Does the clause c (its predicate, its statements) call alloca() or copyin()? */
bool dt_cg_allocates(const dt_node_t *n)
{
	return any_node(n, is_alloc);
}

/*
 * alloca(), copyin(), or a variable (which may hold what they gave); or a
 * value of a kernel type (BTF's: curthread, a struct task_struct *), whose
 * memory dt_cg_read_any reads with probe_read_kernel.
 */
static bool may_hold_scratch(const dt_node_t *n)
{
	return is_alloc(n) || dt_type_is_kernel(n->dn_type) ||
	       (n->dn_kind == DT_N_IDENT && n->dn_ident != NULL &&
		n->dn_ident->di_kind == DT_IDENT_SCALAR) ||
	       (n->dn_kind == DT_N_MEMBER && n->dn_left != NULL &&
		(n->dn_left->dn_kind == DT_N_SELF || n->dn_left->dn_kind == DT_N_THIS)) ||
	       (n->dn_kind == DT_N_INDEX && n->dn_ident != NULL &&
		n->dn_ident->di_kind == DT_IDENT_ARRAY);
}

/*
 * Might the address n computes point to scratch memory?  Only through
 * alloca(), copyin() or a variable (which may hold what they gave): other
 * addresses (a probe's arguments, what they point to) are the process's,
 * read as before.
 */
bool dt_cg_may_scratch(const dt_node_t *n)
{
	return any_node(n, may_hold_scratch);
}

/* r0 = sz bytes at the address in r0, user or scratch memory; a bad address faults. */
static void load_any(dt_cg_t *cg, size_t sz, bool sign)
{
	int ok = label(cg);

	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
	dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_LDX_MEM(bpf_size(sz), R0, FP, SLOT_TMP));
	extend(cg, R0, sz, sign);
}

/* r0 = the value of type t at the address in r0, which addr computed. */
static void load_value_at(dt_cg_t *cg, const dt_type_t *t, const dt_node_t *addr)
{
	if (!dt_cg_may_scratch(addr)) {
		load_value(cg, t);
		return;
	}
	if (t != NULL && dt_type_resolve(t)->dtt_kind == DT_TK_ARRAY)
		return;
	load_any(cg, tsize(t), dt_type_is_signed(t) && !dt_cg_is_float(t));
}

/* ---------------------------------------------------------------- variables */

/*
 * A struct, union or array (int a[4], a char name[16] member): a variable
 * of such a type keeps its bytes, as C lays them out, and is reached by
 * its members and elements.
 */
bool dt_cg_is_blob(const dt_type_t *t)
{
	const dt_type_t *r = dt_type_resolve(t);

	return r != NULL &&
	       (dt_type_is_sou(r) || r->dtt_kind == DT_TK_ARRAY || dt_cg_is_ldouble(r));
}

/*
 * A long double (16 bytes): wider than a register, it is a value by
 * reference as a struct is (illumos dt_node_type_assign gives a float of
 * more than 8 bytes DT_NF_REF): its bytes are copied, recorded and kept.
 */
bool dt_cg_is_ldouble(const dt_type_t *t)
{
	const dt_type_t *r = t != NULL ? dt_type_resolve(t) : NULL;

	return r != NULL && r->dtt_kind == DT_TK_FLOAT && r->dtt_size > 8;
}

static dt_var_t *var(dt_cg_t *cg, const dt_node_t *n, vkind_t kind, const char *name,
		     const dt_type_t *t)
{
	dt_pstate_t *ps = cg->cg_ps;
	char key[256];
	dt_var_t *v;

	snprintf(key, sizeof(key), "%s%s",
		 kind == V_THIS	  ? "this->"
		 : kind == V_SELF ? "self->"
				  : "",
		 name);
	if ((v = (dt_var_t *)dt_strset_get(ps->ps_vars, key)) != NULL) {
		/*
		 * Programs are checked apart (each its own names), and share
		 * variables by name here: the same name must be the same kind
		 * of value in each, as one program's assignments would make it.
		 */
		bool str = is_string(t), sou = t != NULL && dt_cg_is_blob(t);
		uint32_t size = sou   ? (uint32_t)((vsize(cg, t) + 7) & ~(size_t)7)
				: str ? cg->cg_strsize
				      : 8;

		if (t != NULL && (v->v_string != str || v->v_sou != sou || v->v_size != size))
			cg_verror_tag(cg, n, "D_OP_INCOMPAT",
				      "%s is %s in another program, %s here", key,
				      v->v_string ? "a string"
				      : v->v_sou  ? "a struct or union"
						  : "a scalar",
				      str   ? "a string"
				      : sou ? "a struct or union"
					    : "a scalar");
		return v;
	}
	if (t != NULL && !is_string(t) && !dt_type_is_scalar(t) && !dt_type_is_sou(t) &&
	    !dt_cg_is_float(t) && !dt_cg_is_ldouble(t))
		cg_error(cg, n, "variables of this type are not supported yet");
	if (t != NULL && dt_cg_is_blob(t) && (vsize(cg, t) == 0 || vsize(cg, t) > 4096))
		cg_limit(cg, n, "a struct, union or array variable must have 1 to 4096 bytes");
	if ((v = dt_arena_alloc(&ps->ps_arena, sizeof(*v))) == NULL ||
	    dt_pstate_insert(ps, key, v) != 0)
		dt_cnomem(cg->cg_pcb);
	v->v_kind = kind;
	v->v_string = is_string(t);
	v->v_sou = t != NULL && dt_cg_is_blob(t);
	v->v_size = v->v_string ? cg->cg_strsize
		    : v->v_sou	? (uint32_t)((vsize(cg, t) + 7) & ~(size_t)7)
				: 8;
	v->v_id = (uint32_t)++ps->ps_nvarids;
	if (kind == V_GLOBAL) {
		v->v_off = ps->ps_state;
		ps->ps_state += v->v_size;
	} else if (kind == V_THIS) {
		v->v_off = ps->ps_thissize;
		ps->ps_thissize += v->v_size;
	} else if (v->v_sou) {
		dt_souvar_t *sv = realloc(ps->ps_souvars, (ps->ps_nsouvars + 1) * sizeof(*sv));

		if (sv == NULL)
			dt_cnomem(cg->cg_pcb);
		ps->ps_souvars = sv;
		sv[ps->ps_nsouvars] = (dt_souvar_t){ v->v_id, v->v_size };
		v->v_map = ps->ps_nsouvars++;
		if (v->v_size > ps->ps_sousize)
			ps->ps_sousize = v->v_size;
	} else if (v->v_size > ps->ps_valsize) {
		ps->ps_valsize = v->v_size;
	}
	return v;
}

/*
 * A temporary string: its scratch address.  Temporaries are a stack: an
 * expression whose value is not in one (an integer) frees those it took
 * (cg_value), and a subroutine's string result, which is the first its
 * generator takes, frees those of its arguments (cg_call); so a clause
 * needs as many as are live at once, not one per string computed.
 */
uint32_t dt_cg_tmp_string(dt_cg_t *cg)
{
	uint32_t off = cg->cg_tmp;

	cg->cg_tmp += cg->cg_strsize;
	if (cg->cg_tmp > cg->cg_ps->ps_tmpsize)
		cg->cg_ps->ps_tmpsize = cg->cg_tmp;
	return SA(DT_SR_TMP, off);
}

/* A temporary of n bytes (whole strings' room, so strings stay aligned). */
uint32_t dt_cg_tmp_bytes(dt_cg_t *cg, uint32_t n)
{
	uint32_t off = dt_cg_tmp_string(cg);

	for (uint32_t have = cg->cg_strsize; have < n; have += cg->cg_strsize)
		(void)dt_cg_tmp_string(cg);
	return off;
}

/* The scratch address the next temporary will have, without taking it. */
uint32_t dt_cg_tmp_next(const dt_cg_t *cg)
{
	return SA(DT_SR_TMP, cg->cg_tmp);
}

/*
 * r0 = a subroutine's string result, made at off above its arguments'
 * temporaries and moved down to to, where they began (they are free once
 * it is made): so a nesting f(g(h(s))) holds two temporaries, not one a
 * level.  One string copy, which costs the verifier nothing per byte.
 */
void dt_cg_result_down(dt_cg_t *cg, uint32_t to, uint32_t off)
{
	if (to != off) {
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(to)), to);
		emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
		emit(cg, KS_MOV64_REG(R3, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R3, IMM(off)), off);
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	}
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(to)), to);
}

/* r0 = the value of key 0 in the array map, or NULL (r1-r5 clobbered). */
void dt_cg_emit_lookup0(dt_cg_t *cg, uint32_t map)
{
	emit(cg, KS_ST_MEM(BPF_W, FP, SLOT_TMP, 0));
	emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R2, SLOT_TMP));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
}

/*
 * Count one drop of a kind in this CPU's dt_drops value (r0-r5
 * clobbered), by the shared subprogram dt_cg_sub_drop: the lookup is
 * then one instruction of the program, not one per place that counts,
 * and the verifier rewrites (inlines) each lookup of an array map by
 * moving every instruction after it: a cost of the program's length at
 * each lookup.
 */
void dt_cg_count_drop(dt_cg_t *cg, int kind)
{
	emit(cg, KS_MOV64_IMM(R1, kind * 8));
	dt_cg_call_sub(cg, DT_SUBR_DROP);
}

/*
 * Copy the string at r0 to base+off, strsize bytes (off a scratch address
 * when base is r8, else an offset in the state value); r0 keeps the source.
 */
void dt_cg_copy_string(dt_cg_t *cg, int base, uint32_t off)
{
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R1, base));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	emit(cg, KS_MOV64_REG(R0, R9));
}

/*
 * A global or clause-local string variable assigned NULL: its first two
 * bytes are a NUL and 0xff (read as a u16), which no string stored
 * there has (an empty string's second byte is made 0).  illumos keeps a
 * byte before the string for it (DIF_OP_STGS, UINT8_MAX).
 */
#define STR_NULL_MARK 0xff00

/* Store the string at r0 (kept), or NULL if r0 is 0, in a string variable. */
static void str_null_store(dt_cg_t *cg, int base, uint32_t off)
{
	int notnull = label(cg), done = label(cg);

	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R1, base));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R9, 0, 0), notnull);
	emit_sa(cg, KS_ST_MEM(BPF_H, base, OFF(off), STR_NULL_MARK), off);
	jump(cg, done);
	place(cg, notnull);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 1, 0), done); /* 1: "" copied, its NUL */
	emit_sa(cg, KS_ST_MEM(BPF_B, base, (int16_t)(OFF(off) + 1), 0), off);
	place(cg, done);
	emit(cg, KS_MOV64_REG(R0, R9));
}

static void cg_value(dt_cg_t *cg, dt_node_t *n, bool wide);
static void blob_src(dt_cg_t *cg, dt_node_t *n);
static void blob_read(dt_cg_t *cg, const dt_node_t *n);
static void xlate_input(dt_cg_t *cg, dt_node_t *in);
static void bf_insert(dt_cg_t *cg, const lval_t *lv, int ptr, int16_t disp, size_t sz);

/* Compute keys, each waiting on the stack; returns how many. */
int dt_cg_usym_kind(const dt_node_t *n)
{
	if (n->dn_kind != DT_N_CALL || n->dn_ident == NULL || n->dn_ident->di_func == NULL)
		return -1;
	switch (n->dn_ident->di_func->db_id) {
	case DT_B_UADDR:
	case DT_B_UFUNC:
	case DT_B_USYM:
	case DT_B_UMOD:
	case DT_B_SYM:
	case DT_B_FUNC:
	case DT_B_MOD: return (int)n->dn_ident->di_func->db_id;
	default: return -1;
	}
}

/* r0 = the process an address of kind (dt_cg_usym_kind) is in: 0 for the kernel's */
void dt_cg_sym_pid(dt_cg_t *cg, int kind)
{
	if (kind == DT_B_SYM || kind == DT_B_FUNC || kind == DT_B_MOD) {
		emit(cg, KS_MOV64_IMM(R0, 0));
		return;
	}
	emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
}

int dt_cg_stack_kind(const dt_node_t *n)
{
	if (n->dn_kind != DT_N_CALL || n->dn_ident == NULL || n->dn_ident->di_func == NULL)
		return -1;
	switch (n->dn_ident->di_func->db_id) {
	case DT_B_STACK:
	case DT_B_USTACK:
	case DT_B_JSTACK: return (int)n->dn_ident->di_func->db_id;
	default: return -1;
	}
}

int dt_cg_eval_keys(dt_cg_t *cg, dt_node_t *keys)
{
	int nk = 0;

	for (dt_node_t *kn = keys; kn != NULL; kn = kn->dn_next, nk++) {
		if (dt_cg_is_blob(kn->dn_type)) /* a struct key: its address */
			blob_src(cg, kn);
		else if (dt_cg_usym_kind(kn) >= 0) /* @[ufunc(pc)]: the address */
			dt_cg_expr(cg, kn->dn_args);
		else if (dt_cg_stack_kind(kn) >= 0) /* @[ustack()]: walked where it is stored */
			emit(cg, KS_MOV64_IMM(R0, 0));
		else
			dt_cg_expr(cg, kn);
		push(cg, kn);
	}
	return nk;
}

/*
 * r0 = the address of a temporary holding the translated struct or union
 * n (x its DT_N_XLATE) whole, as illumos dt_cg_asgn_op builds one for a
 * struct assignment (and dt_cg_xlate_expand for trace()): zeroed memory
 * (DIF_OP_ALLOCS), then each member the translator defines, in the
 * translator's order, computed with its input bound to e's value (e
 * computed once) and stored at its offset as its type; a member the
 * translator does not define stays zero.
 */
static void xlate_build(dt_cg_t *cg, dt_node_t *n, dt_node_t *x, const dt_type_t *st)
{
	size_t sz = tsize(st);
	const dt_ident_t *arg = cg->cg_xarg;
	int16_t slot = cg->cg_xslot;
	uint32_t tmp = cg->cg_tmp, mark;

	if (x->dn_xlator == NULL || x->dn_xlator->dx_argid == NULL)
		cg_error(cg, n, "this translation is not supported yet");
	if (sz == 0 || sz > 4096)
		cg_limit(cg, n, "a translated struct or union must have 1 to 4096 bytes");
	cg->cg_tmp += (uint32_t)((sz + 7) & ~(size_t)7);
	if (cg->cg_tmp > cg->cg_ps->ps_tmpsize)
		cg->cg_ps->ps_tmpsize = cg->cg_tmp;
	mark = cg->cg_tmp;
	tmp = SA(DT_SR_TMP, tmp);
	for (uint32_t z = 0; z < sz; z += 8)
		emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(tmp + z), 0), tmp);
	xlate_input(cg, x->dn_left);
	push(cg, n);
	cg->cg_xarg = x->dn_xlator->dx_argid;
	cg->cg_xslot = dt_cg_slot_at(cg->cg_sp);
	for (dt_node_t *m = x->dn_xlator->dx_members; m != NULL; m = m->dn_next) {
		const dt_member_t *dm = dt_type_member(st, m->dn_name);
		const dt_type_t *mt = dm != NULL ? dm->dm_type : NULL;
		uint32_t at = tmp + (uint32_t)(dm != NULL ? dm->dm_off : 0);

		if (dm == NULL)
			cg_error(cg, m, "translated member %s cannot be built yet", m->dn_name);
		if (dm->dm_bits != 0) { /* its unit read, the bits put in, written (dt_cg_store) */
			size_t unit = tsize(mt), pos = dm->dm_off * 8 + (size_t)dm->dm_bitoff;
			size_t u0 = pos / (unit * 8) * unit;
			lval_t lv = { .lv_type = mt,
				      .lv_bits = dm->dm_bits,
				      .lv_bshift = (int)(pos - u0 * 8) };
			uint32_t ua = tmp + (uint32_t)u0;

			dt_cg_expr(cg, m->dn_right);
			emit(cg, KS_MOV64_REG(R3, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R3, IMM(ua)), ua);
			bf_insert(cg, &lv, R3, 0, unit);
		} else if (is_string(mt) || is_string(m->dn_right->dn_type)) {
			size_t len = tsize(mt) < cg->cg_strsize ? tsize(mt) : cg->cg_strsize;

			dt_cg_expr(cg, m->dn_right);
			emit(cg, KS_MOV64_REG(R3, R0));
			emit(cg, KS_MOV64_REG(R1, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(at)), at);
			emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
			emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
		} else if (dt_cg_is_blob(mt)) {
			blob_src(cg, m->dn_right);
			emit(cg, KS_MOV64_REG(R3, R0));
			emit(cg, KS_MOV64_REG(R1, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(at)), at);
			emit(cg, KS_MOV64_IMM(R2, (int32_t)tsize(mt)));
			blob_read(cg, m->dn_right);
		} else {
			dt_cg_expr(cg, m->dn_right);
			normalize(cg, R0, mt);
			emit_sa(cg, KS_STX_MEM(bpf_size(tsize(mt)), R8, R0, OFF(at)), at);
		}
		cg->cg_tmp = mark; /* the member's temporaries */
	}
	cg->cg_xarg = arg;
	cg->cg_xslot = slot;
	cg->cg_sp--; /* the input, no longer needed */
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(tmp)), tmp);
}

/*
 * r0 = a pointer to the struct or union xlate<T *>(e) (n) translates, as
 * illumos' dt_cg_xlate_expand makes one: built whole (xlate_build), then
 * copied into scratch memory allocated as alloca() does, so that it lives
 * for the rest of the clause (this->p = curpsinfo; ... this->p->pr_pid).
 */
static void xlate_pointer(dt_cg_t *cg, dt_node_t *n)
{
	const dt_type_t *st = dt_type_resolve(dt_type_resolve(n->dn_type)->dtt_ref);
	int16_t s_src, s_dst;

	xlate_build(cg, n, n, st);
	push(cg, n);
	s_src = dt_cg_slot_at(cg->cg_sp);
	emit(cg, KS_MOV64_IMM(R0, (int32_t)tsize(st)));
	dt_cg_allocate(cg);
	dt_cg_alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	push(cg, n);
	s_dst = dt_cg_slot_at(cg->cg_sp);
	dt_cg_scratch_dest(cg); /* r1: where, bounded; r9: the size */
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_src));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_dst));
	cg->cg_sp -= 2;
}

/* Zero the scratch key buffer's first size bytes. */
void dt_cg_zero_key(dt_cg_t *cg, uint32_t size)
{
	for (uint32_t z = 0; z < size; z += 8)
		emit_sa(cg, KS_ST_MEM(BPF_DW, R8, (int16_t)z, 0), SA(DT_SR_KEY, 0));
}

/*
 * Store the nk keys eval_keys() left on the stack in the scratch key
 * buffer from offset off, in order (the first pushed is deepest), and pop
 * them.  Returns the offset after the last key.
 */
uint32_t dt_cg_store_keys(dt_cg_t *cg, dt_node_t *keys, int nk, uint32_t off)
{
	dt_node_t *ki = keys;

	for (int i = 0; i < nk; i++, ki = ki->dn_next) {
		int slot = cg->cg_sp - (nk - 1 - i);

		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, (int16_t)(-8 * (slot + SLOT_FIRST - 1))));
		if (is_string(ki->dn_type)) {
			dt_cg_copy_string(cg, R8, SA(DT_SR_KEY, off));
			off += cg->cg_strsize;
		} else if (dt_cg_usym_kind(ki) >= 0) { /* the process ID, then the address */
			emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)(off + 8)),
				SA(DT_SR_KEY, 0));
			dt_cg_sym_pid(cg, dt_cg_usym_kind(ki));
			emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off), SA(DT_SR_KEY, 0));
			off += 16;
		} else if (dt_cg_stack_kind(ki) >= 0) {
			uint32_t nf;

			dt_cg_stack_into(cg, ki, SA(DT_SR_KEY, off));
			off += dt_cg_stack_size(cg, ki, &nf);
		} else if (dt_cg_is_blob(ki->dn_type)) { /* a struct's bytes (tst.StructAssoc.d) */
			size_t sz = vsize(cg, ki->dn_type);

			emit(cg, KS_MOV64_REG(R3, R0));
			emit(cg, KS_MOV64_REG(R1, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(SA(DT_SR_KEY, off))),
				SA(DT_SR_KEY, off));
			emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
			blob_read(cg, ki);
			off += (uint32_t)((sz + 7) & ~(size_t)7);
		} else {
			emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off), SA(DT_SR_KEY, 0));
			off += 8;
		}
	}
	cg->cg_sp -= nk;
	if (off > cg->cg_ps->ps_keysize)
		cg->cg_ps->ps_keysize = off;
	return off;
}

/*
 * Build the key of a dynamic variable in the scratch key buffer: its id,
 * the thread for self->, then the keys.  The keys are computed first (they
 * may read other dynamic variables), waiting on the stack.  The key is the
 * dvars map's: as large as the largest dynamic variable key of the
 * program's (not its aggregations': a stack key of 800 bytes would make
 * every self-> access zero and hash as much), zeroed whole.
 */
void dt_cg_dyn_key(dt_cg_t *cg, const dt_var_t *v, dt_node_t *keys)
{
	uint32_t k = SA(DT_SR_KEY, 0), end;
	int nk = dt_cg_eval_keys(cg, keys);

	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_KEYZERO });
	emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(k), (int32_t)v->v_id), k);
	if (v->v_kind == V_SELF) {
		emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(k + 8)), k);
	}
	end = dt_cg_store_keys(cg, keys, nk, 16);
	if (end > cg->cg_ps->ps_dynkeysize)
		cg->cg_ps->ps_dynkeysize = end;
}

/*
 * r0 = the value of a dynamic variable: 0 when absent, for a string NULL
 * as illumos's (0 where n may be NULL, cg_nullnode; else a fault at 0).
 */
static void dyn_load(dt_cg_t *cg, dt_var_t *v, dt_node_t *keys, const dt_node_t *n)
{
	int done = label(cg);
	uint32_t k = SA(DT_SR_KEY, 0);
	bool nullok = cg->cg_nullnode == n;

	dt_cg_dyn_key(cg, v, keys);
	emit_map(cg, R1, DT_MAP_DVARS);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(k)), k);
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	if (v->v_string) {
		cg->cg_nullnode = NULL;
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), done);
		if (!nullok)
			dt_cg_fault(cg, DT_FLT_BADADDR, R0);
	} else { /* absent: r0 is 0 */
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
		emit(cg, KS_LDX_MEM(BPF_DW, R0, R0, 0));
	}
	place(cg, done);
}

/*
 * Write the value under the key built in the scratch key buffer: a scalar
 * in r0 (kept in r9; 0 deletes the variable), else the value already in
 * the scratch value buffer.  A full table counts a drop.
 */
static void dyn_put(dt_cg_t *cg, bool scalar)
{
	uint32_t key = SA(DT_SR_KEY, 0), val = SA(DT_SR_VAL, 0);
	int del = label(cg), done = label(cg);

	if (scalar) {
		emit(cg, KS_MOV64_REG(R9, R0));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), del);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(val)), val);
	}
	emit_map(cg, R1, DT_MAP_DVARS);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_MOV64_REG(R3, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R3, IMM(val)), val);
	emit(cg, KS_MOV64_IMM(R4, BPF_ANY));
	emit(cg, KS_CALL(BPF_FUNC_map_update_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
	dt_cg_count_drop(cg, DT_DROP_DYN);
	if (scalar) { /* no unreachable code for the verifier */
		jump(cg, done);
		place(cg, del);
		emit_map(cg, R1, DT_MAP_DVARS);
		emit(cg, KS_MOV64_REG(R2, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
		emit(cg, KS_CALL(BPF_FUNC_map_delete_elem));
	}
	place(cg, done);
}

/* Store r0 (kept) in a dynamic variable: 0 deletes it; a full table counts a drop. */
static void dyn_store(dt_cg_t *cg, dt_var_t *v, dt_node_t *keys, const dt_node_t *n,
		      const dt_type_t *t)
{
	push(cg, n);
	dt_cg_dyn_key(cg, v, keys);
	pop(cg, R0);
	emit(cg, KS_MOV64_REG(R9, R0));
	if (v->v_string) {
		int put = label(cg), done = label(cg);

		/* NULL deletes it, as illumos's dtrace_dynvar() for a 0 value */
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), put);
		dyn_put(cg, true);
		jump(cg, done);
		place(cg, put);
		dt_cg_copy_string(cg, R8, SA(DT_SR_VAL, 0));
		dyn_put(cg, false);
		place(cg, done);
	} else {
		normalize(cg, R0, t);
		dyn_put(cg, true);
	}
	emit(cg, KS_MOV64_REG(R0, R9));
}

/* ---------------------------------------------------------------- lvalues */

/* Is n a[i] of an array-typed operand (a scalar array, an array member), not a[k] of an associative array? */
static bool is_elem(const dt_node_t *n)
{
	return n->dn_kind == DT_N_INDEX &&
	       !(n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ARRAY) &&
	       n->dn_left->dn_type != NULL &&
	       dt_type_resolve(n->dn_left->dn_type)->dtt_kind == DT_TK_ARRAY;
}

/* Is n a variable, or a member (.) or element of a member ... of a variable? */
bool dt_cg_names_variable(const dt_node_t *n)
{
	while (n->dn_kind == DT_N_MEMBER && n->dn_op != T_ARROW)
		n = n->dn_left;
	if (n->dn_kind == DT_N_SELF || n->dn_kind == DT_N_THIS)
		return true;
	if (n->dn_kind == DT_N_MEMBER) /* self->v, this->v, or p->m of memory */
		return n->dn_left->dn_kind == DT_N_SELF || n->dn_left->dn_kind == DT_N_THIS;
	if (is_elem(n))
		return dt_cg_names_variable(n->dn_left);
	return n->dn_ident != NULL &&
	       ((n->dn_kind == DT_N_IDENT && n->dn_ident->di_kind == DT_IDENT_SCALAR) ||
		(n->dn_kind == DT_N_INDEX && n->dn_ident->di_kind == DT_IDENT_ARRAY));
}

/* Is n a char array a variable holds (char buf[32], r.name, self->r.tag), read as a string? */
static bool is_var_chars(const dt_node_t *n)
{
	const dt_type_t *t = dt_type_resolve(n->dn_type);
	const dt_type_t *e =
	    t != NULL && t->dtt_kind == DT_TK_ARRAY ? dt_type_resolve(t->dtt_ref) : NULL;

	return e != NULL && dt_type_is_int(e) && e->dtt_size == 1 && !dt_cg_is_memory(n) &&
	       dt_cg_names_variable(n);
}

lval_t dt_cg_lvalue_of(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv = { .lv_type = n->dn_type, .lv_node = n };

	if (is_elem(n) && dt_cg_names_variable(n->dn_left)) {
		/* a[i], m[i][j], v.vals[i]: an element of an array variable or member */
		const dt_type_t *at = dt_type_resolve(n->dn_left->dn_type);

		if (!is_string(n->dn_type) && !dt_cg_is_blob(n->dn_type) &&
		    !dt_type_is_scalar(n->dn_type) && !dt_cg_is_float(n->dn_type))
			cg_error(
			    cg, n,
			    "arrays of this element type are not supported yet (only integers, "
			    "pointers, strings, structs, unions and arrays)");
		lv = dt_cg_lvalue_of(cg, n->dn_left);
		if (!lv.lv_var->v_sou)
			cg_error(cg, n, "this kind of index is not supported yet");
		if (lv.lv_nidx == LV_MAXIDX)
			cg_limit(cg, n, "an element may have %d indexes at most", LV_MAXIDX);
		lv.lv_idx[lv.lv_nidx].ix_expr = n->dn_args;
		lv.lv_idx[lv.lv_nidx].ix_esize = (uint32_t)vsize(cg, n->dn_type);
		lv.lv_idx[lv.lv_nidx].ix_nelems = (uint32_t)at->dtt_nelems;
		lv.lv_nidx++;
		lv.lv_member = true;
		lv.lv_type = n->dn_type;
		lv.lv_node = n;
		return lv;
	}

	if (n->dn_kind == DT_N_MEMBER && n->dn_op != T_ARROW && n->dn_left->dn_kind != DT_N_SELF &&
	    n->dn_left->dn_kind != DT_N_THIS) {
		/* v.m, self->v.m, a[k].m, v.inner.m: a member of a struct variable */
		const dt_type_t *st = dt_type_resolve(n->dn_left->dn_type);
		const dt_member_t *m =
		    st != NULL && dt_type_is_sou(st) ? dt_type_member(st, n->dn_name) : NULL;
		const dt_type_t *mt = m != NULL ? dt_type_resolve(m->dm_type) : NULL;

		if (m == NULL || !dt_cg_names_variable(n->dn_left))
			cg_error(cg, n,
				 "the . operator is supported on variables only yet (not on "
				 "memory: p->m.x, (*p).m)");
		if (!dt_cg_is_blob(mt) && !dt_cg_is_float(mt) && !dt_type_is_scalar(mt))
			cg_error(
			    cg, n,
			    "member %s: only integer, pointer, array, struct and union members "
			    "of a variable can be used yet",
			    n->dn_name);
		lv = dt_cg_lvalue_of(cg, n->dn_left);
		if (!lv.lv_var->v_sou)
			cg_error(cg, n, "the . operator is not supported yet on this operand");
		lv.lv_member = true;
		lv.lv_moff += (uint32_t)m->dm_off;
		lv.lv_type = n->dn_type;
		lv.lv_node = n;
		if (m->dm_bits != 0) {
			/*
			 * A bit-field lies in a unit of its type, aligned (dt_parse.c
			 * lays them out as C on x86-64): that unit is read and written.
			 */
			size_t unit = tsize(m->dm_type), pos = m->dm_off * 8 + (size_t)m->dm_bitoff;
			size_t u0 = pos / (unit * 8) * unit;

			lv.lv_moff -= (uint32_t)(m->dm_off - u0);
			lv.lv_bits = m->dm_bits;
			lv.lv_bshift = (int)(pos - u0 * 8);
		}
		return lv;
	}
	if (n->dn_kind == DT_N_IDENT && n->dn_ident != NULL &&
	    n->dn_ident->di_kind == DT_IDENT_SCALAR) {
		lv.lv_var = var(cg, n, V_GLOBAL, n->dn_name, n->dn_type);
	} else if (n->dn_kind == DT_N_MEMBER &&
		   (n->dn_left->dn_kind == DT_N_SELF || n->dn_left->dn_kind == DT_N_THIS)) {
		lv.lv_var = var(cg, n, n->dn_left->dn_kind == DT_N_SELF ? V_SELF : V_THIS,
				n->dn_name, n->dn_type);
	} else if (n->dn_kind == DT_N_INDEX && n->dn_ident != NULL &&
		   n->dn_ident->di_kind == DT_IDENT_ARRAY) {
		/* self->a[k]: a thread's own array */
		bool self = n->dn_left->dn_kind == DT_N_MEMBER;

		lv.lv_var = var(cg, n, self ? V_SELF : V_ARRAY, n->dn_left->dn_name, n->dn_type);
		lv.lv_keys = n->dn_args;
	} else {
		cg_error(cg, n, "this assignment is not supported yet");
	}
	return lv;
}

/* A variable, or a member of one, read or written as a whole value. */
static lval_t lvalue(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv = dt_cg_lvalue_of(cg, n);

	if (lv.lv_var->v_sou && (!lv.lv_member || dt_cg_is_blob(lv.lv_type)))
		cg_error(cg, n,
			 "a struct, union or array variable is used by its members (v.m) and "
			 "elements (a[i]) only: copying or passing it whole is not supported yet");
	return lv;
}

/*
 * r0 = the byte offset in its variable of the member or element lv names:
 * lv_moff and its run-time indexes, each checked first (the verifier bounds
 * the offset by the checks).  An index outside its array is a bad address
 * fault, as illumos's store outside any variable (dtrace_canstore, Oracle's
 * tst.badstore); the address it reports is that offset, the variable
 * having no address of its own here.  Reads fault too, where illumos would
 * read the memory beside the variable.
 */
void dt_cg_elem_offset(dt_cg_t *cg, const lval_t *lv)
{
	emit(cg, KS_MOV64_IMM(R0, (int32_t)lv->lv_moff));
	for (int i = 0; i < lv->lv_nidx; i++) {
		int ok = label(cg);

		push(cg, lv->lv_node);
		dt_cg_expr(cg, lv->lv_idx[i].ix_expr);
		pop(cg, R2);
		emit(cg, KS_MOV64_REG(R9, R0));
		emit(cg, KS_ALU64_IMM(BPF_MUL, R9, (int32_t)lv->lv_idx[i].ix_esize));
		emit(cg, KS_ALU64_REG(BPF_ADD, R9, R2));
		emit_to(cg, KS_JMP_IMM(BPF_JLT, R0, (int32_t)lv->lv_idx[i].ix_nelems, 0), ok);
		dt_cg_fault(cg, DT_FLT_BADADDR, R9);
		place(cg, ok);
		emit(cg, KS_ALU64_IMM(BPF_MUL, R0, (int32_t)lv->lv_idx[i].ix_esize));
		emit(cg, KS_ALU64_REG(BPF_ADD, R0, R2));
	}
}

/* r1 = the address at offset r0 (elem_offset) in a global or this-> variable at base + off. */
void dt_cg_elem_address(dt_cg_t *cg, uint32_t off, int base)
{
	emit(cg, KS_MOV64_REG(R1, base));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
}

/* Where a global (state, r7) or clause-local (scratch, r8) variable lives. */
uint32_t dt_cg_var_place(const dt_cg_t *cg, const dt_var_t *v, int *base)
{
	(void)cg;
	*base = v->v_kind == V_GLOBAL ? R7 : R8;
	return v->v_kind == V_GLOBAL ? v->v_off : SA(DT_SR_THIS, v->v_off);
}

/* The map of a dynamic variable: its own for a struct or union. */
uint32_t dt_cg_dvar_map(const dt_var_t *v)
{
	return v->v_sou ? DT_MAP_SOU(v->v_map) : DT_MAP_DVARS;
}

/*
 * r0, sz bytes read (zero-extended), brought to lv's type; a bit-field's
 * bits taken from its unit, sign-extended if its type is signed (as C).
 */
static void lv_extend(dt_cg_t *cg, const lval_t *lv, size_t sz)
{
	bool sign = dt_type_is_int(lv->lv_type) && dt_type_is_signed(lv->lv_type);

	if (lv->lv_bits == 0) {
		extend(cg, R0, sz, sign);
		return;
	}
	if (64 - lv->lv_bshift - lv->lv_bits != 0)
		emit(cg, KS_ALU64_IMM(BPF_LSH, R0, 64 - lv->lv_bshift - lv->lv_bits));
	if (lv->lv_bits != 64)
		emit(cg, KS_ALU64_IMM(sign ? BPF_ARSH : BPF_RSH, R0, 64 - lv->lv_bits));
}

/*
 * Store r0 in the bit-field lv names, in its unit of sz bytes at
 * ptr + disp (r1, r2 clobbered); r0 = the field's new value, as read.
 */
static void bf_insert(dt_cg_t *cg, const lval_t *lv, int ptr, int16_t disp, size_t sz)
{
	uint64_t mask = lv->lv_bits == 64 ? ~0ULL : (1ULL << lv->lv_bits) - 1;

	emit(cg, KS_LDX_MEM(bpf_size(sz), R1, ptr, disp));
	emit_imm64(cg, R2, ~(mask << lv->lv_bshift));
	emit(cg, KS_ALU64_REG(BPF_AND, R1, R2));
	emit(cg, KS_MOV64_REG(R2, R0));
	if (lv->lv_bits != 64) {
		emit(cg, KS_ALU64_IMM(BPF_LSH, R2, 64 - lv->lv_bits));
		emit(cg, KS_ALU64_IMM(BPF_RSH, R2, 64 - lv->lv_bits));
	}
	if (lv->lv_bshift != 0)
		emit(cg, KS_ALU64_IMM(BPF_LSH, R2, lv->lv_bshift));
	emit(cg, KS_ALU64_REG(BPF_OR, R1, R2));
	emit(cg, KS_STX_MEM(bpf_size(sz), ptr, R1, disp));
	emit(cg, KS_MOV64_REG(R0, R2));
	if (lv->lv_bshift != 0)
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, lv->lv_bshift));
	lv_extend(cg, &(lval_t){ .lv_type = lv->lv_type, .lv_bits = lv->lv_bits }, 8);
}

/*
 * r0 = the string element lv names (string a[4]: a[i], as illumos's
 * *(a + i) of its string type, a reference to the element's strsize
 * bytes); an absent dynamic variable's is the empty string.
 */
static void string_elem(dt_cg_t *cg, const lval_t *lv)
{
	const dt_var_t *v = lv->lv_var;
	int base, have = label(cg), done = label(cg);

	dt_cg_elem_offset(cg, lv);
	if (v->v_kind == V_GLOBAL || v->v_kind == V_THIS) {
		uint32_t off = dt_cg_var_place(cg, v, &base);

		dt_cg_elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R0, R1));
		return;
	}
	push(cg, lv->lv_node);
	dt_cg_dyn_key(cg, v, lv->lv_keys);
	emit_map(cg, R1, dt_cg_dvar_map(lv->lv_var));
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	pop(cg, R1);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
	emit(cg, KS_MOV64_REG(R0, R8)); /* absent: "" */
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(SA(DT_SR_EMPTY, 0))), SA(DT_SR_EMPTY, 0));
	jump(cg, done);
	place(cg, have);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	place(cg, done);
}

/* r0 = the value of a member of a struct variable (0 where a dynamic one is absent). */
static void member_load(dt_cg_t *cg, const lval_t *lv)
{
	const dt_var_t *v = lv->lv_var;
	size_t sz = tsize(lv->lv_type);
	int base, done = label(cg);
	uint32_t off;

	if (lv->lv_nidx > 0 && is_string(lv->lv_type)) { /* a string element: where it is */
		string_elem(cg, lv);
		return;
	}
	if (lv->lv_nidx > 0) { /* a[i], v.vals[i]: at a run-time offset */
		dt_cg_elem_offset(cg, lv);
		if (v->v_kind == V_GLOBAL || v->v_kind == V_THIS) {
			off = dt_cg_var_place(cg, v, &base);
			dt_cg_elem_address(cg, off, base);
			emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R1, 0));
		} else {
			push(cg, lv->lv_node);
			dt_cg_dyn_key(cg, v, lv->lv_keys);
			emit_map(cg, R1, dt_cg_dvar_map(lv->lv_var));
			emit(cg, KS_MOV64_REG(R2, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
			emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
			pop(cg, R1);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done); /* absent: r0 is 0 */
			emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
			emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R0, 0));
		}
		place(cg, done);
		lv_extend(cg, lv, sz);
		return;
	}
	switch (v->v_kind) {
	case V_GLOBAL:
	case V_THIS:
		off = dt_cg_var_place(cg, v, &base) + lv->lv_moff;
		if (SA_OFF(off) > INT16_MAX)
			cg_limit(cg, lv->lv_node, "too many variables for one map value");
		emit_sa(cg, KS_LDX_MEM(bpf_size(sz), R0, base, OFF(off)), off);
		break;
	default:
		dt_cg_dyn_key(cg, v, lv->lv_keys);
		emit_map(cg, R1, dt_cg_dvar_map(lv->lv_var));
		emit(cg, KS_MOV64_REG(R2, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
		emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done); /* absent: r0 is 0 */
		emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R0, (int16_t)lv->lv_moff));
	}
	place(cg, done);
	lv_extend(cg, lv, sz);
}

/*
 * r0 = the entry of map fd under the key at scratch + key, made from
 * dt_zero's value if absent (BPF_NOEXIST: another CPU may make it first,
 * so look again); a full map jumps to drop.  r1-r5 clobbered.
 *
 * The verifier walks every conditional jump's fall-through first and keeps
 * the jump's target for later: each one on that path is a pending state,
 * and a program whose first path has more than 8192 is refused
 * (BPF_COMPLEXITY_LIMIT_JMP_SEQ; dt_link.c counts them).  So the path of an
 * existing entry falls through, with one conditional jump, and the making
 * of a new one is jumped to.
 */
void dt_cg_get_or_make(dt_cg_t *cg, uint32_t map, uint32_t key, int drop)
{
	int have = label(cg), make = label(cg);

	emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), make);
	jump(cg, have);
	place(cg, make);
	dt_cg_emit_lookup0(cg, DT_MAP_ZERO);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), drop);
	emit(cg, KS_MOV64_REG(R3, R0));
	emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_MOV64_IMM(R4, BPF_NOEXIST));
	emit(cg, KS_CALL(BPF_FUNC_map_update_elem)); /* EEXIST: another CPU made it */
	emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), drop);
	place(cg, have);
}

/*
 * r0 = the element of a dynamic struct variable lv names, made zero-filled
 * if absent; a full table jumps to drop (which counts a dynamic drop).
 */
static void member_elem(dt_cg_t *cg, const lval_t *lv, int drop)
{
	dt_cg_dyn_key(cg, lv->lv_var, lv->lv_keys);
	dt_cg_get_or_make(cg, dt_cg_dvar_map(lv->lv_var), SA(DT_SR_KEY, 0), drop);
}

int16_t dt_cg_slot_at(int sp)
{
	return (int16_t)(-8 * (sp + SLOT_FIRST - 1));
}

/* Is lv in a variable a map lookup finds (self->, an associative array), which may be full? */
static bool lv_dynamic(const lval_t *lv)
{
	return lv->lv_var->v_kind == V_SELF || lv->lv_var->v_kind == V_ARRAY;
}

/*
 * r0 = a pointer to the member or element lv names, a dynamic variable
 * made if absent (a full table jumps to drop); returns the displacement
 * from r0 to use: lv_moff, or 0 where r0 has it with the indexes.
 */
static int16_t elem_ptr(dt_cg_t *cg, const lval_t *lv, int drop)
{
	int base;

	if (lv->lv_nidx == 0 && lv_dynamic(lv)) {
		member_elem(cg, lv, drop);
		return (int16_t)lv->lv_moff;
	}
	dt_cg_elem_offset(cg, lv);
	if (!lv_dynamic(lv)) {
		uint32_t off = dt_cg_var_place(cg, lv->lv_var, &base);

		dt_cg_elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R0, R1));
		return 0;
	}
	push(cg, lv->lv_node);
	member_elem(cg, lv, drop);
	pop(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	return 0;
}

/*
 * Store r0 (kept, normalised) in a member of a struct variable.  A dynamic
 * one is made, zero-filled, by the first store to any of its members;
 * storing 0 does not delete it.
 */
static void member_store(dt_cg_t *cg, const lval_t *lv, const dt_node_t *n)
{
	const dt_var_t *v = lv->lv_var;
	size_t sz = tsize(lv->lv_type);
	int base, done = label(cg), drop = label(cg);
	int16_t slot, disp;
	uint32_t off;

	if (is_string(lv->lv_type)) { /* a string element: strsize bytes copied, as DIF_OP_COPYS */
		push(cg, n);
		slot = dt_cg_slot_at(cg->cg_sp);
		disp = elem_ptr(cg, lv, drop);
		emit(cg, KS_MOV64_REG(R1, R0));
		if (disp != 0)
			emit(cg, KS_ALU64_IMM(BPF_ADD, R1, disp));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
		emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, slot));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
		if (lv_dynamic(lv)) {
			jump(cg, done);
			place(cg, drop);
			dt_cg_count_drop(cg, DT_DROP_DYN);
		}
		place(cg, done);
		pop(cg, R0);
		return;
	}
	normalize(cg, R0, lv->lv_type);
	if (lv->lv_nidx == 0 && lv->lv_bits == 0 &&
	    (v->v_kind == V_GLOBAL || v->v_kind == V_THIS)) {
		off = dt_cg_var_place(cg, v, &base) + lv->lv_moff;
		if (SA_OFF(off) > INT16_MAX)
			cg_limit(cg, n, "too many variables for one map value");
		emit_sa(cg, KS_STX_MEM(bpf_size(sz), base, R0, OFF(off)), off);
		return;
	}
	push(cg, n);
	slot = dt_cg_slot_at(cg->cg_sp);
	disp = elem_ptr(cg, lv, drop);
	if (lv->lv_bits != 0) { /* the value is the field's, as read */
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, slot));
		bf_insert(cg, lv, R3, disp, sz);
		emit(cg, KS_STX_MEM(BPF_DW, FP, R0, slot));
	} else {
		emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, slot));
		emit(cg, KS_STX_MEM(bpf_size(sz), R0, R1, disp));
	}
	if (lv_dynamic(lv)) {
		jump(cg, done);
		place(cg, drop);
		dt_cg_count_drop(cg, DT_DROP_DYN);
	}
	place(cg, done);
	pop(cg, R0); /* the value, on both paths */
}

/* An integer literal from 1 to INT32_MAX: its value, the same in any type; else 0. */
static int32_t const_divisor(const dt_node_t *n)
{
	return n->dn_kind == DT_N_INT && n->dn_value >= 1 && n->dn_value <= INT32_MAX
		   ? (int32_t)n->dn_value
		   : 0;
}

static void arith(dt_cg_t *cg, dt_tok_t op, const dt_type_t *lt, const dt_type_t *rt,
		  const dt_type_t *t, bool wide, int32_t kdiv);

/*
 * For op=, ++ and --: keep the old value r0 at stack slot s_old, then
 * r0 = old op e (e waiting at s_rhs) or old +/- 1, brought to type t.
 */
static void new_value(dt_cg_t *cg, dt_tok_t op, const dt_type_t *t, const dt_node_t *rhs,
		      int16_t s_rhs, int16_t s_old)
{
	emit(cg, KS_STX_MEM(BPF_DW, FP, R0, s_old));
	emit(cg, KS_MOV64_REG(R1, R0));
	if (rhs != NULL)
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_rhs));
	else
		emit(cg, KS_MOV64_IMM(R0, 1));
	arith(cg, op, t, rhs != NULL ? rhs->dn_type : t, t, false, 0);
	emit(cg, KS_MOV64_REG(R0, R1));
	normalize(cg, R0, t);
}

/*
 * x op= e, ++x, x++, --x, x-- on a member of a dynamic struct variable:
 * the keys are computed and the element found (or made) once, then read
 * and written through one pointer.  r0 = the expression's value.
 */
static void member_update(dt_cg_t *cg, const dt_node_t *n, const lval_t *lv, dt_tok_t op,
			  const dt_node_t *rhs, bool post)
{
	const dt_type_t *t = lv->lv_type;
	size_t sz = tsize(t);
	int sp0 = cg->cg_sp, drop = label(cg), done = label(cg);
	int16_t s_rhs = 0, s_ptr, s_old, disp;

	if (rhs != NULL) {
		dt_cg_expr(cg, (dt_node_t *)rhs);
		push(cg, n);
		s_rhs = dt_cg_slot_at(cg->cg_sp);
	}
	if (cg->cg_sp + 2 > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	s_ptr = dt_cg_slot_at(cg->cg_sp + 1);
	s_old = dt_cg_slot_at(cg->cg_sp + 2);
	cg->cg_sp += 2;
	disp = elem_ptr(cg, lv, drop);
	emit(cg, KS_STX_MEM(BPF_DW, FP, R0, s_ptr));
	emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R0, disp));
	lv_extend(cg, lv, sz);
	new_value(cg, op, t, rhs, s_rhs, s_old);
	if (lv->lv_bits != 0) {
		emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_ptr));
		bf_insert(cg, lv, R3, disp, sz);
	} else {
		emit(cg, KS_LDX_MEM(BPF_DW, R2, FP, s_ptr));
		emit(cg, KS_STX_MEM(bpf_size(sz), R2, R0, disp));
	}
	if (post)
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_old));
	if (lv_dynamic(lv)) {
		jump(cg, done);
		place(cg, drop);
		dt_cg_count_drop(cg, DT_DROP_DYN);
		emit(cg, KS_MOV64_IMM(R0, 0));
	}
	place(cg, done);
	cg->cg_sp = sp0;
}

/*
 * x op= e, ++x, x++, --x, x-- on a dynamic scalar (self->x, a[k]): the
 * keys are computed once, the old value looked up, the new one stored
 * under the same key (0 deletes it).  r0 = the expression's value.
 */
static void dyn_update(dt_cg_t *cg, const dt_node_t *n, const lval_t *lv, dt_tok_t op,
		       const dt_node_t *rhs, bool post)
{
	const dt_type_t *t = lv->lv_type;
	int sp0 = cg->cg_sp;
	int16_t s_rhs = 0, s_old;

	if (rhs != NULL) {
		dt_cg_expr(cg, (dt_node_t *)rhs);
		push(cg, n);
		s_rhs = dt_cg_slot_at(cg->cg_sp);
	}
	if (cg->cg_sp + 1 > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	s_old = dt_cg_slot_at(++cg->cg_sp);
	dyn_load(cg, lv->lv_var, lv->lv_keys, NULL); /* leaves the key in the key buffer */
	new_value(cg, op, t, rhs, s_rhs, s_old);
	dyn_put(cg, true); /* the key buffer still holds this element's key */
	if (post)
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_old));
	else
		emit(cg, KS_MOV64_REG(R0, R9));
	cg->cg_sp = sp0;
}

static void lv_load(dt_cg_t *cg, lval_t *lv)
{
	dt_var_t *v = lv->lv_var;

	if (lv->lv_member) {
		member_load(cg, lv);
		return;
	}
	switch (v->v_kind) {
	case V_GLOBAL:
	case V_THIS: {
		int base;
		uint32_t off = dt_cg_var_place(cg, v, &base);

		if (v->v_string) {
			int ok = label(cg);

			emit(cg, KS_MOV64_REG(R0, base));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
			/* NULL (str_null_store): 0 where it may be, else a fault at 0 */
			emit_sa(cg, KS_LDX_MEM(BPF_H, R1, base, OFF(off)), off);
			emit_to(cg, KS_JMP_IMM(BPF_JNE, R1, STR_NULL_MARK, 0), ok);
			emit(cg, KS_MOV64_IMM(R0, 0));
			if (cg->cg_nullnode != lv->lv_node)
				dt_cg_fault(cg, DT_FLT_BADADDR, R0);
			place(cg, ok);
			cg->cg_nullnode = NULL;
		} else {
			emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, base, OFF(off)), off);
		}
		break;
	}
	default: dyn_load(cg, v, lv->lv_keys, lv->lv_node);
	}
}

/* Store r0 (kept, normalised) in the lvalue. */
static void lv_store(dt_cg_t *cg, lval_t *lv, const dt_node_t *n)
{
	dt_var_t *v = lv->lv_var;

	if (lv->lv_member) {
		member_store(cg, lv, n);
		return;
	}
	switch (v->v_kind) {
	case V_GLOBAL:
	case V_THIS: {
		int base;
		uint32_t off = dt_cg_var_place(cg, v, &base);

		if (SA_OFF(off) > INT16_MAX)
			cg_limit(cg, n, "too many variables for one map value");
		if (v->v_string) {
			str_null_store(cg, base, off);
		} else {
			normalize(cg, R0, lv->lv_type);
			emit_sa(cg, KS_STX_MEM(BPF_DW, base, R0, OFF(off)), off);
		}
		break;
	}
	default: dyn_store(cg, v, lv->lv_keys, n, lv->lv_type);
	}
}

/* ---------------------------------------------------------------- expressions */

/* Compare strings: r0 = strcmp(left, right), compared as op wants into 0/1. */
/*
 * r0 = a string operand of a comparison: a D string as it is, a char
 * pointer or array (a probe's char * argument) read as a string from the
 * process's memory into a temporary.
 */
void dt_cg_str_operand(dt_cg_t *cg, dt_node_t *n)
{
	dt_cg_expr(cg, n);
	if (!is_string(n->dn_type) &&
	    !is_var_chars(n)) /* scratch memory too: stringof(copyin(p, n)) */
		dt_cg_string_from(cg, dt_cg_tmp_string(cg), true, dt_cg_may_scratch(n));
}

/* Does n's string come from a subroutine that may give NULL (through ?:)? */
static bool may_null(const dt_node_t *n)
{
	if (n->dn_kind == DT_N_TERNARY)
		return may_null(n->dn_left) || may_null(n->dn_right);
	if (!is_string(n->dn_type) && (n->dn_flags & DT_NF_CONST) && n->dn_value == 0)
		return true; /* c ? s : NULL */
	if ((n->dn_kind == DT_N_IDENT && n->dn_ident != NULL &&
	     n->dn_ident->di_kind == DT_IDENT_SCALAR) ||
	    (n->dn_kind == DT_N_MEMBER &&
	     (n->dn_left->dn_kind == DT_N_THIS || n->dn_left->dn_kind == DT_N_SELF)) ||
	    (n->dn_kind == DT_N_INDEX && n->dn_ident != NULL &&
	     n->dn_ident->di_kind == DT_IDENT_ARRAY))
		return true; /* a string variable assigned NULL, or absent */
	if (n->dn_kind != DT_N_CALL || n->dn_ident == NULL || n->dn_ident->di_func == NULL)
		return false;
	switch (n->dn_ident->di_func->db_id) {
	case DT_B_STRCHR:
	case DT_B_STRRCHR:
	case DT_B_STRSTR:
	case DT_B_STRTOK:
	case DT_B_JSON: return true;
	default: return false;
	}
}

/*
 * r0 = a string operand where NULL reads as "": a comparison's operand
 * (illumos' DIF_OP_SCMP: dtrace_strncmp() takes a NULL string as empty,
 * so NULL == "" too) and the value assigned to a string variable.  The
 * constant 0 (NULL) is an empty temporary; strchr() and friends finding
 * nothing give one too instead of faulting (cg_nullnode: call_bpf lets
 * their NULL through here only, every other use of it faults as illumos
 * reading address 0).
 */
static void str_nullable(dt_cg_t *cg, dt_node_t *n)
{
	uint32_t off;
	int ok = label(cg);

	if (!is_string(n->dn_type) && dt_type_is_int(n->dn_type) && (n->dn_flags & DT_NF_CONST) &&
	    n->dn_value == 0) {
		off = dt_cg_tmp_string(cg);
		emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off), 0), off);
		emit(cg, KS_MOV64_REG(R0, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
		return;
	}
	if (!may_null(n)) {
		dt_cg_str_operand(cg, n);
		return;
	}
	cg->cg_nullnode = n;
	dt_cg_str_operand(cg, n);
	cg->cg_nullnode = NULL;
	off = dt_cg_tmp_string(cg);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), ok);
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off), 0), off);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
	place(cg, ok);
}

/* r0 = a string operand, or 0 for NULL (the constant, or a result that is NULL) */
void dt_cg_str_or_null(dt_cg_t *cg, dt_node_t *n)
{
	if (!is_string(n->dn_type) && dt_type_is_int(n->dn_type) && (n->dn_flags & DT_NF_CONST) &&
	    n->dn_value == 0) {
		emit(cg, KS_MOV64_IMM(R0, 0));
		return;
	}
	cg->cg_nullnode = may_null(n) ? n : NULL;
	dt_cg_str_operand(cg, n);
	cg->cg_nullnode = NULL;
}

/*
 * s == "lit" and s != "lit" for a literal shorter than strsize: the
 * literal's bytes and its NUL, a word at a time, against s's first words
 * (s is at an 8-byte boundary with strsize bytes, as strcmp's operands;
 * bytes after the NUL are masked off), with no call and no loop: strcmp's
 * loop cost the verifier strsize/8 iterations in each program that
 * compares (the bytes of s after its own NUL never matter: at the first
 * NUL of s before the literal's, the literal has a byte that is not 0).
 */
static bool str_compare_literal(dt_cg_t *cg, dt_node_t *n)
{
	dt_node_t *lit = n->dn_right, *other = n->dn_left;
	int ne = label(cg), done = label(cg);
	size_t len, words;

	if (n->dn_op != T_EQEQ && n->dn_op != T_NE)
		return false;
	if (lit->dn_kind != DT_N_STRING) {
		lit = n->dn_left;
		other = n->dn_right;
	}
	if (lit->dn_kind != DT_N_STRING || !is_string(other->dn_type))
		return false;
	len = strnlen(lit->dn_string, lit->dn_strlen);
	if (len + 1 > cg->cg_strsize || len + 1 > 64)
		return false;
	words = (len + 1 + 7) / 8;
	str_nullable(cg, other);
	for (size_t k = 0; k < words; k++) {
		size_t m = len + 1 - 8 * k < 8 ? len + 1 - 8 * k : 8; /* bytes compared */
		uint64_t w = 0;

		for (size_t b = 0; b < m; b++)
			w |= (uint64_t)(uint8_t)(8 * k + b < len ? lit->dn_string[8 * k + b] : 0)
			     << (8 * b);
		emit(cg, KS_LDX_MEM(BPF_DW, R1, R0, (int16_t)(8 * k)));
		if (m < 8) {
			emit_imm64(cg, R2, (1ULL << (8 * m)) - 1);
			emit(cg, KS_ALU64_REG(BPF_AND, R1, R2));
		}
		emit_imm64(cg, R2, w);
		emit_to(cg, KS_JMP_REG(BPF_JNE, R1, R2, 0), ne);
	}
	emit(cg, KS_MOV64_IMM(R0, n->dn_op == T_EQEQ));
	jump(cg, done);
	place(cg, ne);
	emit(cg, KS_MOV64_IMM(R0, n->dn_op == T_NE));
	place(cg, done);
	return true;
}

static void str_compare(dt_cg_t *cg, dt_node_t *n)
{
	static const struct {
		dt_tok_t tok;
		int jop;
	} ops[] = { { T_EQEQ, BPF_JEQ }, { T_NE, BPF_JNE },  { T_LT, BPF_JSLT },
		    { T_LE, BPF_JSLE },	 { T_GT, BPF_JSGT }, { T_GE, BPF_JSGE } };
	int yes = label(cg), done = label(cg), jop = BPF_JEQ;

	if (str_compare_literal(cg, n))
		return;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].tok == n->dn_op)
			jop = ops[i].jop;
	str_nullable(cg, n->dn_left);
	push(cg, n);
	str_nullable(cg, n->dn_right);
	emit(cg, KS_MOV64_REG(R2, R0));
	pop(cg, R1);
	dt_cg_call_sub(cg, DT_SUBR_STRCMP);
	emit_to(cg, KS_JMP_IMM(jop, R0, 0, 0), yes);
	emit(cg, KS_MOV64_IMM(R0, 0));
	jump(cg, done);
	place(cg, yes);
	emit(cg, KS_MOV64_IMM(R0, 1));
	place(cg, done);
}

/*
 * r1 = r1 op r0 for an arithmetic operator; the result's type is t.  On the
 * 64-bit registers, as DIF computes: the types choose signed or unsigned
 * division and shift only; the result is narrowed to t unless wide (an
 * operand of another operator, which computes on the 64 bits).
 */
static void arith(dt_cg_t *cg, dt_tok_t op, const dt_type_t *lt, const dt_type_t *rt,
		  const dt_type_t *t, bool wide, int32_t kdiv)
{
	/*
	 * An assignment operator has its left operand's type, and DIF divides
	 * by it (illumos dt_cook_op2 propagates it, K&R A7.17): int -1 /= 2u
	 * is 0.  Other operators have the usual conversions' type.
	 */
	bool uns = dt_tok_is_assign(op) || op == T_INC || op == T_DEC
		       ? dt_type_is_ptr(lt) || !dt_type_is_signed(lt)
		       : cmp_unsigned(lt, rt);
	const dt_type_t *rl = dt_type_resolve(lt), *rr = dt_type_resolve(rt);
	/* ++ and -- pass t for the constant 1 */
	bool lp = dt_type_is_ptr(rl), rp = op != T_INC && op != T_DEC && dt_type_is_ptr(rr);
	/*
	 * Pointer arithmetic scales the integer operand by the pointee's size,
	 * on either side (4 + p as p + 4); pointer - pointer divides the byte
	 * difference by it, unsigned, as illumos dt_cg_arithmetic_op does
	 * (DIF_OP_UDIV): q - p is the element count.
	 */
	size_t scale = lp && !rp ? tsize(rl->dtt_ref) : 1;
	size_t lscale = rp && !lp ? tsize(rr->dtt_ref) : 1;
	size_t pdiv = lp && rp ? tsize(rl->dtt_ref) : 1;
	int ok;

	switch (op) {
	case T_PLUS:
	case T_ADD_EQ:
	case T_INC:
		if (scale > 1)
			emit(cg, KS_ALU64_IMM(BPF_MUL, R0, (int32_t)scale));
		if (lscale > 1)
			emit(cg, KS_ALU64_IMM(BPF_MUL, R1, (int32_t)lscale));
		emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
		break;
	case T_MINUS:
	case T_SUB_EQ:
	case T_DEC:
		if (scale > 1)
			emit(cg, KS_ALU64_IMM(BPF_MUL, R0, (int32_t)scale));
		emit(cg, KS_ALU64_REG(BPF_SUB, R1, R0));
		if (pdiv > 1)
			emit(cg, KS_ALU64_IMM(BPF_DIV, R1, (int32_t)pdiv));
		break;
	case T_STAR:
	case T_MUL_EQ: emit(cg, KS_ALU64_REG(BPF_MUL, R1, R0)); break;
	case T_SLASH:
	case T_DIV_EQ:
	case T_PERCENT:
	case T_MOD_EQ: {
		int alu = (op == T_SLASH || op == T_DIV_EQ) ? BPF_DIV : BPF_MOD;

		/*
		 * By a positive constant: no zero check, and the immediate form,
		 * which the verifier leaves as it is (it rewrites a division by a
		 * register, and removes a check it proves dead: each a move of
		 * every instruction after it).  Signed division: off 1 (BPF ISA v4).
		 */
		if (kdiv > 0) {
			emit(cg, KS_INSN(BPF_ALU64 | alu | BPF_K, R1, 0, uns ? 0 : 1, kdiv));
			break;
		}
		ok = label(cg);
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), ok);
		dt_cg_fault(cg, DT_FLT_DIVZERO, -1);
		place(cg, ok);
		emit(cg, KS_INSN(BPF_ALU64 | alu | BPF_X, R1, R0, uns ? 0 : 1, 0));
		break;
	}
	case T_AMP:
	case T_AND_EQ: emit(cg, KS_ALU64_REG(BPF_AND, R1, R0)); break;
	case T_BAR:
	case T_OR_EQ: emit(cg, KS_ALU64_REG(BPF_OR, R1, R0)); break;
	case T_XOR:
	case T_XOR_EQ: emit(cg, KS_ALU64_REG(BPF_XOR, R1, R0)); break;
	case T_SHL:
	case T_SHL_EQ: emit(cg, KS_ALU64_REG(BPF_LSH, R1, R0)); break;
	case T_SHR:
	case T_SHR_EQ:
		emit(cg, KS_ALU64_REG(dt_type_is_signed(lt) ? BPF_ARSH : BPF_RSH, R1, R0));
		break;
	default: cg_error(cg, NULL, "internal error: operator %s", dt_tok_name(op));
	}
	if (!wide)
		normalize(cg, R1, t);
}

/*
 * r0 = a comparison's operand: a struct, union or array is where it is,
 * as illumos dt_cg_compare_op compares the reference a by-reference value
 * is (DIF_OP_CMP): a variable is equal to itself only, *p to *q when p is
 * q; an absent dynamic variable is the zeros every absent one reads.
 */
static void operand(dt_cg_t *cg, dt_node_t *n)
{
	if (dt_cg_is_blob(n->dn_type) && !is_string(n->dn_type)) {
		blob_src(cg, n);
		return;
	}
	cg_value(cg, n, true);
}

static void compare(dt_cg_t *cg, dt_node_t *n)
{
	bool uns = cmp_unsigned(n->dn_left->dn_type, n->dn_right->dn_type);
	int yes = label(cg), done = label(cg), jop;

	if (is_string(n->dn_left->dn_type) || is_string(n->dn_right->dn_type)) {
		str_compare(cg, n);
		return;
	}
	switch (n->dn_op) {
	case T_EQEQ: jop = BPF_JEQ; break;
	case T_NE: jop = BPF_JNE; break;
	case T_LT: jop = uns ? BPF_JLT : BPF_JSLT; break;
	case T_LE: jop = uns ? BPF_JLE : BPF_JSLE; break;
	case T_GT: jop = uns ? BPF_JGT : BPF_JSGT; break;
	default: jop = uns ? BPF_JGE : BPF_JSGE; break;
	}
	/* the 64-bit values, as DIF compares them: -1 == 0xffffffff is false */
	operand(cg, n->dn_left);
	push(cg, n);
	operand(cg, n->dn_right);
	pop(cg, R1);
	emit_to(cg, KS_JMP_REG(jop, R1, R0, 0), yes);
	emit(cg, KS_MOV64_IMM(R0, 0));
	jump(cg, done);
	place(cg, yes);
	emit(cg, KS_MOV64_IMM(R0, 1));
	place(cg, done);
}

static bool is_global_int(const lval_t *lv)
{
	return lv->lv_var->v_kind == V_GLOBAL && !lv->lv_var->v_string &&
	       (!lv->lv_var->v_sou || lv->lv_member);
}

/* Is n memory a pointer designates (*p, p->m, p[i]), not a variable? */
/* A translator's input of struct or union type: held in scratch memory (xlate_input) */
static bool is_xarg_sou(const dt_node_t *n)
{
	return n->dn_kind == DT_N_IDENT && n->dn_ident != NULL &&
	       (n->dn_ident->di_flags & DT_IDF_XLARG) && dt_type_is_sou(n->dn_type);
}

bool dt_cg_is_memory(const dt_node_t *n)
{
	const dt_node_t *l = n->dn_left;

	if (is_xarg_sou(n))
		return true;
	if (n->dn_kind == DT_N_CAST && dt_type_is_sou(n->dn_type)) /* (struct in) v */
		return dt_cg_is_memory(l);

	if (n->dn_kind == DT_N_UNARY &&
	    n->dn_op == T_STAR) /* *xlate<T *>(e): built (xlate_build) */
		return l->dn_kind != DT_N_XLATE;
	if (n->dn_kind == DT_N_MEMBER && n->dn_op == T_ARROW)
		return l->dn_kind != DT_N_SELF && l->dn_kind != DT_N_THIS &&
		       l->dn_kind != DT_N_XLATE &&
		       !(l->dn_kind == DT_N_IDENT && l->dn_ident != NULL &&
			 l->dn_ident->di_kind == DT_IDENT_BUILTIN &&
			 !dt_type_is_kernel(l->dn_type)); /* curthread->pid is memory */
	if (n->dn_kind == DT_N_MEMBER)			  /* (*p).m, p->a.b */
		return dt_cg_is_memory(l);
	return n->dn_kind == DT_N_INDEX &&
	       !(n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ARRAY) &&
	       !(l->dn_kind == DT_N_IDENT && l->dn_ident != NULL && l->dn_ident->di_func != NULL) &&
	       (dt_type_resolve(l->dn_type)->dtt_kind == DT_TK_PTR ||
		(dt_type_resolve(l->dn_type)->dtt_kind == DT_TK_ARRAY && dt_cg_is_memory(l)));
}

/* r0 = the address of the memory n designates (is_memory(n)). */
void dt_cg_mem_address(dt_cg_t *cg, dt_node_t *n)
{
	if (is_xarg_sou(n)) {
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, cg->cg_xslot));
	} else if (n->dn_kind == DT_N_CAST) {
		dt_cg_mem_address(cg, n->dn_left);
	} else if (n->dn_kind == DT_N_UNARY) {
		dt_cg_expr(cg, n->dn_left);
	} else if (n->dn_kind == DT_N_MEMBER) {
		const dt_type_t *lt = dt_type_resolve(n->dn_left->dn_type);
		const dt_type_t *st = n->dn_op == T_ARROW ? dt_type_resolve(lt->dtt_ref) : lt;
		const dt_member_t *m = st != NULL ? dt_type_member(st, n->dn_name) : NULL;

		if (m == NULL || m->dm_bits != 0)
			cg_error(cg, n, "member %s: bit-fields in memory are not supported yet",
				 n->dn_name);
		if (n->dn_op == T_ARROW)
			dt_cg_expr(cg, n->dn_left);
		else
			dt_cg_mem_address(cg, n->dn_left);
		if (m->dm_off != 0)
			emit(cg, KS_ALU64_IMM(BPF_ADD, R0, (int32_t)m->dm_off));
	} else {
		dt_cg_expr(cg, n->dn_args);
		push(cg, n);
		dt_cg_expr(cg, n->dn_left);
		pop(cg, R1);
		emit(cg, KS_ALU64_IMM(BPF_MUL, R1, (int32_t)tsize(n->dn_type)));
		emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	}
}

/*
 * *p = e, p->m = e, p[i] = e: a store into scratch memory this clause
 * allocated, as illumos allows (dtrace_canstore); anywhere else is a bad
 * address fault.  r0 = the value.
 */
static lval_t mem_bitfield_unit(dt_cg_t *cg, dt_node_t *n);

/*
 * *p op= e, p->m++, --p[i]...: the address computed and checked once (a
 * store into what the clause allocated, as for =), the old value read
 * through it, the new one written back.  r0 = the expression's value: the
 * old one after x++ and x--, else the new one.
 */
static void memory_update(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_tok_t op, dt_node_t *rhs,
			  bool post)
{
	const dt_type_t *t = target->dn_type;
	size_t sz = tsize(t);
	int sp0 = cg->cg_sp;
	int16_t s_rhs = 0, s_ptr, s_old;

	if (rhs != NULL) {
		dt_cg_expr(cg, rhs);
		push(cg, n);
		s_rhs = dt_cg_slot_at(cg->cg_sp);
	}
	dt_cg_mem_address(cg, target);
	emit(cg, KS_MOV64_IMM(R9, (int32_t)sz));
	dt_cg_scratch_dest(cg);
	emit(cg, KS_MOV64_REG(R0, R1));
	push(cg, n); /* the checked pointer */
	s_ptr = dt_cg_slot_at(cg->cg_sp);
	push(cg, n); /* a slot for the old value */
	s_old = dt_cg_slot_at(cg->cg_sp);
	emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R0, 0));
	normalize(cg, R0, t);
	new_value(cg, op, t, rhs, s_rhs, s_old);
	emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, s_ptr));
	emit(cg, KS_STX_MEM(bpf_size(sz), R1, R0, 0));
	if (post)
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_old));
	cg->cg_sp = sp0;
}

/*
 * p->bf op= e, p->bf++, --p->bf on a bit-field in memory: its unit's
 * address checked once (scratch memory, as for =), the unit read, the
 * field taken out (sign-extended for a signed type), the new value
 * computed in the field's type and put back in the unit's other bits, cut
 * to the width, as a bit-field variable's.  r0 = the field's new value as
 * it reads now (wrapped), or the old one after x++ and x--.
 */
static void bitfield_update(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_tok_t op,
			    dt_node_t *rhs, bool post)
{
	int sp0 = cg->cg_sp;
	int16_t s_rhs = 0, s_ptr, s_old;
	lval_t lv;
	size_t usz;

	if (rhs != NULL) {
		dt_cg_expr(cg, rhs);
		push(cg, n);
		s_rhs = dt_cg_slot_at(cg->cg_sp);
	}
	lv = mem_bitfield_unit(cg, target);
	usz = tsize(lv.lv_type);
	emit(cg, KS_MOV64_IMM(R9, (int32_t)usz));
	dt_cg_scratch_dest(cg);
	emit(cg, KS_MOV64_REG(R0, R1));
	push(cg, n); /* the checked pointer */
	s_ptr = dt_cg_slot_at(cg->cg_sp);
	push(cg, n); /* a slot for the old value */
	s_old = dt_cg_slot_at(cg->cg_sp);
	emit(cg, KS_LDX_MEM(bpf_size(usz), R0, R0, 0));
	lv_extend(cg, &lv, usz);
	new_value(cg, op, lv.lv_type, rhs, s_rhs, s_old);
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_ptr));
	bf_insert(cg, &lv, R3, 0, usz);
	if (post)
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_old));
	cg->cg_sp = sp0;
}

static void memory_store(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_tok_t op, dt_node_t *rhs,
			 bool post)
{
	const dt_type_t *t = target->dn_type;
	size_t sz = tsize(t);
	int16_t s_val;

	if (!dt_type_is_scalar(t) || dt_type_resolve(t)->dtt_kind == DT_TK_ARRAY)
		cg_error(cg, n, "only integers and pointers can be stored through a pointer yet");
	if (op != T_ASSIGN && (target->dn_flags & DT_NF_BITFIELD)) {
		bitfield_update(cg, n, target, op, rhs, post);
		return;
	}
	if (op != T_ASSIGN) {
		memory_update(cg, n, target, op, rhs, post);
		return;
	}
	if (target->dn_flags & DT_NF_BITFIELD) { /* its unit read, changed and written */
		lval_t lv;

		dt_cg_expr(cg, rhs);
		push(cg, n);
		s_val = dt_cg_slot_at(cg->cg_sp);
		lv = mem_bitfield_unit(cg, target);
		emit(cg, KS_MOV64_IMM(R9, (int32_t)tsize(lv.lv_type)));
		dt_cg_scratch_dest(cg);
		emit(cg, KS_MOV64_REG(R3, R1));
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_val));
		bf_insert(cg, &lv, R3, 0, tsize(lv.lv_type));
		emit(cg, KS_STX_MEM(BPF_DW, FP, R0, s_val));
		pop(cg, R0);
		return;
	}
	dt_cg_expr(cg, rhs);
	normalize(cg, R0, t);
	push(cg, n);
	s_val = dt_cg_slot_at(cg->cg_sp);
	dt_cg_mem_address(cg, target);
	emit(cg, KS_MOV64_IMM(R9, (int32_t)sz));
	dt_cg_scratch_dest(cg);
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_val));
	emit(cg, KS_STX_MEM(bpf_size(sz), R1, R0, 0));
	pop(cg, R0);
}

/* xlate<T>(e) or *xlate<T *>(e), a translated struct or union whole: its DT_N_XLATE */
static dt_node_t *xlate_whole(dt_node_t *n)
{
	if (n->dn_kind == DT_N_XLATE && !dt_type_is_ptr(n->dn_type))
		return n;
	if (n->dn_kind == DT_N_UNARY && n->dn_op == T_STAR && n->dn_left->dn_kind == DT_N_XLATE)
		return n->dn_left;
	return NULL;
}

static void xlate_build(dt_cg_t *cg, dt_node_t *n, dt_node_t *x, const dt_type_t *st);

/*
 * r0 = a translator's input: e's value, or for a struct or union e the
 * address of a copy of it made in the alloca region, as illumos holds a
 * by-reference input by its reference (the members read it as memory).
 */
static void xlate_input(dt_cg_t *cg, dt_node_t *in)
{
	size_t sz = vsize(cg, in->dn_type);

	if (!dt_type_is_sou(in->dn_type)) {
		dt_cg_expr(cg, in);
		return;
	}
	blob_src(cg, in);
	push(cg, in);
	emit(cg, KS_MOV64_IMM(R0, (int32_t)sz));
	dt_cg_allocate(cg);
	dt_cg_alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	push(cg, in);
	emit(cg, KS_MOV64_IMM(R9, (int32_t)sz));
	dt_cg_scratch_dest(cg);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, dt_cg_slot_at(cg->cg_sp - 1)));
	blob_read(cg, in);
	pop(cg, R0);
	cg->cg_sp--; /* the source */
}

/*
 * A struct, union or array a variable holds, passed whole where an address
 * is wanted (tracemem(buf, 8), bcopy(buf, p, n)), as illumos passes the
 * reference to the variable's storage, which dtrace_canload lets be read:
 * r0 = its address, to read with probe_read_kernel, and *size its bytes;
 * false if n is not one.
 */
bool dt_cg_var_blob(dt_cg_t *cg, dt_node_t *n, size_t *size)
{
	if (!dt_cg_is_blob(n->dn_type) || is_string(n->dn_type) ||
	    (xlate_whole(n) == NULL && (dt_cg_is_memory(n) || !dt_cg_names_variable(n))))
		return false;
	*size = vsize(cg, n->dn_type);
	blob_src(cg, n);
	return true;
}

/* If n is a translated struct or union whole, r0 = the address of it, built; else false. */
bool dt_cg_xlate_whole(dt_cg_t *cg, dt_node_t *n)
{
	if (xlate_whole(n) == NULL)
		return false;
	xlate_build(cg, n, xlate_whole(n), dt_type_resolve(n->dn_type));
	return true;
}

/*
 * r0 = the address of the struct, union or array value n: memory's (*p,
 * p->s), a translated struct's, built in a temporary, or a variable's bytes (an absent dynamic one reads as zeros, as
 * its members do).
 */
static void blob_src(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv;
	int base, have = label(cg), done = label(cg);

	if (xlate_whole(n) != NULL) {
		xlate_build(cg, n, xlate_whole(n), dt_type_resolve(n->dn_type));
		return;
	}
	if (dt_cg_is_memory(n)) {
		dt_cg_mem_address(cg, n);
		return;
	}
	if (!dt_cg_names_variable(n))
		cg_error(cg, n, "this struct or union value cannot be copied yet");
	lv = dt_cg_lvalue_of(cg, n);
	dt_cg_elem_offset(cg, &lv);
	if (!lv_dynamic(&lv)) {
		uint32_t off = dt_cg_var_place(cg, lv.lv_var, &base);

		dt_cg_elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R0, R1));
		return;
	}
	push(cg, n);
	dt_cg_dyn_key(cg, lv.lv_var, lv.lv_keys);
	emit_map(cg, R1, dt_cg_dvar_map(lv.lv_var));
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
	dt_cg_emit_lookup0(cg, DT_MAP_ZERO); /* absent: its zeros */
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
	pop(cg, R1);
	jump(cg, done); /* r0 = 0: the read faults */
	place(cg, have);
	cg->cg_sp++; /* the offset, still on the stack on this path */
	pop(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	place(cg, done);
}

/*
 * Read r2 bytes of the value n at r3 (blob_src) into r1: a variable's with
 * probe_read_kernel, memory's as other reads of it are (a bad address
 * faults at it).  r9 clobbered.
 */
static void blob_read(dt_cg_t *cg, const dt_node_t *n)
{
	int ok = label(cg);

	emit(cg, KS_MOV64_REG(R9, R3));
	if (!dt_cg_is_memory(n))
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	else if (dt_cg_may_scratch(n))
		dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
}

/*
 * s2 = s1 of structs and unions (an array is D_OP_ARRFUN): the bytes copied into a
 * variable (a dynamic one made, a full table counting a drop), as
 * illumos copies a by-reference value (DIF_OP_COPYS).  r0 = 0.
 */
static void blob_assign(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_node_t *rhs)
{
	lval_t lv = dt_cg_lvalue_of(cg, target);
	size_t sz = vsize(cg, target->dn_type);
	int drop = label(cg), done = label(cg);
	int16_t disp;

	if (!lv.lv_var->v_sou)
		cg_error(cg, n, "this assignment is not supported yet");
	blob_src(cg, rhs);
	if (dt_cg_is_memory(rhs)) {
		/* memory is read first into a temporary: a bad address faults
		 * with the destination untouched */
		uint32_t tmp = cg->cg_tmp;

		cg->cg_tmp += (uint32_t)((sz + 7) & ~(size_t)7);
		if (cg->cg_tmp > cg->cg_ps->ps_tmpsize)
			cg->cg_ps->ps_tmpsize = cg->cg_tmp;
		tmp = SA(DT_SR_TMP, tmp);
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(tmp)), tmp);
		emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
		blob_read(cg, rhs);
		emit(cg, KS_MOV64_REG(R0, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(tmp)), tmp);
	}
	push(cg, n);
	disp = elem_ptr(cg, &lv, drop);
	emit(cg, KS_MOV64_REG(R1, R0));
	if (disp != 0)
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, disp));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
	pop(cg, R3);
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel)); /* a variable's bytes, or the temporary's */
	if (lv_dynamic(&lv)) {
		jump(cg, done);
		place(cg, drop);
		dt_cg_count_drop(cg, DT_DROP_DYN);
	}
	place(cg, done);
	emit(cg, KS_MOV64_IMM(R0, 0));
}

/* Assignment, compound assignment, ++ and --; stmt: the value is not used. */
void dt_cg_assign(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_tok_t op, dt_node_t *rhs,
		  bool post, bool is_stmt)
{
	lval_t lv;
	const dt_type_t *t = target->dn_type;

	if (dt_cg_is_memory(target)) {
		memory_store(cg, n, target, op, rhs, post);
		return;
	}
	if (op == T_ASSIGN && dt_cg_is_blob(t) && !is_string(rhs->dn_type)) {
		blob_assign(cg, n, target, rhs);
		return;
	}
	lv = lvalue(cg, target);

	/*
	 * A global integer counted by a statement (x++, x += e): one atomic
	 * add, so that no update is lost between CPUs.
	 */
	if (is_stmt && is_global_int(&lv) && tsize(t) == 8 && lv.lv_nidx == 0 && lv.lv_bits == 0 &&
	    (op == T_INC || op == T_DEC || op == T_ADD_EQ || op == T_SUB_EQ) &&
	    !dt_type_is_ptr(t)) {
		if (rhs != NULL)
			dt_cg_expr(cg, rhs);
		else
			emit(cg, KS_MOV64_IMM(R0, 1));
		if (op == T_DEC || op == T_SUB_EQ)
			emit(cg, KS_ALU64_IMM(BPF_NEG, R0, 0));
		emit(cg, KS_ATOMIC_ADD64(R7, R0, (int16_t)(lv.lv_var->v_off + lv.lv_moff)));
		return;
	}
	if (op == T_ASSIGN) {
		/*
		 * A string variable may be assigned NULL: a global or
		 * clause-local one keeps it (str_null_store), a dynamic one is
		 * deleted (dyn_store), as illumos.
		 */
		if (is_string(t))
			dt_cg_str_or_null(cg, rhs);
		else
			dt_cg_expr(cg, rhs);
		lv_store(cg, &lv, n);
		return;
	}
	if (lv_dynamic(&lv) || lv.lv_nidx > 0 || lv.lv_bits != 0) { /* the element found once */
		if (lv.lv_member)
			member_update(cg, n, &lv, op, rhs, post);
		else
			dyn_update(cg, n, &lv, op, rhs, post);
		return;
	}
	if (rhs != NULL) { /* x op= e */
		dt_cg_expr(cg, rhs);
		push(cg, n);
		lv_load(cg, &lv);
		emit(cg, KS_MOV64_REG(R1, R0));
		pop(cg, R0);
		arith(cg, op, t, rhs->dn_type, t, false, 0);
		emit(cg, KS_MOV64_REG(R0, R1));
		lv_store(cg, &lv, n);
		return;
	}
	/* ++x, x++, --x, x-- */
	lv_load(cg, &lv);
	if (post)
		push(cg, n);
	emit(cg, KS_MOV64_REG(R1, R0));
	emit(cg, KS_MOV64_IMM(R0, 1));
	arith(cg, op, t, t, t, false, 0);
	emit(cg, KS_MOV64_REG(R0, R1));
	lv_store(cg, &lv, n);
	if (post)
		pop(cg, R0);
}

/*
 * r0 = a temporary string holding the char array variable or member lv
 * names: its bytes up to the first NUL, all of them at most (a full
 * char name[16] has no NUL), strsize - 1 at most; an absent dynamic
 * variable is "".
 */
static void var_chars(dt_cg_t *cg, const lval_t *lv)
{
	uint32_t tmp = dt_cg_tmp_string(cg), off;
	size_t n = tsize(lv->lv_type) + 1;
	int base, done = label(cg), empty = label(cg);

	dt_cg_elem_offset(cg, lv);
	if (!lv_dynamic(lv)) {
		off = dt_cg_var_place(cg, lv->lv_var, &base);
		dt_cg_elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R3, R1));
	} else {
		push(cg, lv->lv_node);
		dt_cg_dyn_key(cg, lv->lv_var, lv->lv_keys);
		emit_map(cg, R1, dt_cg_dvar_map(lv->lv_var));
		emit(cg, KS_MOV64_REG(R2, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
		emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
		pop(cg, R1);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), empty);
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_ALU64_REG(BPF_ADD, R3, R1));
	}
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(tmp)), tmp);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)(n < cg->cg_strsize ? n : cg->cg_strsize)));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	if (lv_dynamic(lv)) {
		jump(cg, done);
		place(cg, empty);
		emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(tmp), 0), tmp);
	}
	place(cg, done);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(tmp)), tmp);
}

/*
 * r0 = the address of the unit holding a bit-field of memory (p->m, (*p).m,
 * p->a.m); returns the field as an lvalue of that unit.
 */
static lval_t mem_bitfield_unit(dt_cg_t *cg, dt_node_t *n)
{
	const dt_type_t *lt = dt_type_resolve(n->dn_left->dn_type);
	const dt_type_t *st = n->dn_op == T_ARROW ? dt_type_resolve(lt->dtt_ref) : lt;
	const dt_member_t *m = dt_type_member(st, n->dn_name);
	size_t unit = tsize(m->dm_type), pos = m->dm_off * 8 + (size_t)m->dm_bitoff;
	size_t u0 = pos / (unit * 8) * unit;
	lval_t lv = { .lv_type = m->dm_type,
		      .lv_node = n,
		      .lv_bits = m->dm_bits,
		      .lv_bshift = (int)(pos - u0 * 8) };

	if (n->dn_op == T_ARROW)
		dt_cg_expr(cg, n->dn_left);
	else
		dt_cg_mem_address(cg, n->dn_left);
	if (u0 != 0)
		emit(cg, KS_ALU64_IMM(BPF_ADD, R0, (int32_t)u0));
	return lv;
}

/*
 * r0 = &v.m, &this->s.a[i], &self->r.m, &tab[k].m: the address of the
 * member or element in the variable's storage (a map value), as a number
 * (stored and read back, as alloca() gives its memory), as illumos gives
 * the address of a by-reference variable's storage.  An index outside its
 * array faults, as it does to read the element.  An absent dynamic
 * variable has no storage: its address is 0 and the member's is its
 * offset (illumos: a NULL base), which faults when read.  Reading through
 * it reads the variable's bytes (dt_cg_read_any: an address in the
 * kernel's half of the address space); storing through it is a bad
 * address fault, as any store outside scratch memory.
 */
static void var_address(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv = dt_cg_lvalue_of(cg, n);
	uint32_t w = SA(DT_SR_ALLOCA, DT_ALLOCA_WORD);
	int base, done = label(cg), absent = label(cg);

	if (!lv.lv_member)
		cg_error(cg, n,
			 "operator & is supported on a variable's members and elements only");
	(void)dt_cg_scratch_use(cg); /* the word */
	if (lv.lv_nidx > 0)
		dt_cg_elem_offset(cg, &lv);
	else
		emit(cg, KS_MOV64_IMM(R0, (int32_t)lv.lv_moff));
	if (!lv_dynamic(&lv)) {
		uint32_t off = dt_cg_var_place(cg, lv.lv_var, &base);

		dt_cg_elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R0, R1));
	} else {
		push(cg, n);
		dt_cg_dyn_key(cg, lv.lv_var, lv.lv_keys);
		emit_map(cg, R1, dt_cg_dvar_map(lv.lv_var));
		emit(cg, KS_MOV64_REG(R2, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
		emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
		pop(cg, R1);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), absent);
		emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
		jump(cg, done);
		place(cg, absent);
		emit(cg, KS_MOV64_REG(R0, R1)); /* the offset from NULL */
		place(cg, done);
	}
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(w)), w);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(w)), w);
}

/* r0 = a bit-field of memory: its unit read, then its bits taken out as from a variable. */
static void mem_bitfield(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv = mem_bitfield_unit(cg, n);

	load_value_at(cg, lv.lv_type, n->dn_left);
	lv_extend(cg, &lv, 8);
}

/*
 * r0 = xlate<T>(e).m or xlate<T *>(e)->m: the translator's expression for
 * m, its input bound to e's value (illumos' dt_cg translates a member
 * alone, dt_xlator_member: nothing else of the translator is computed).
 */
static void xlate_member(dt_cg_t *cg, dt_node_t *n)
{
	dt_node_t *x = n->dn_left, *m = NULL;
	const dt_ident_t *arg = cg->cg_xarg;
	int16_t slot = cg->cg_xslot;

	for (m = x->dn_xlator != NULL ? x->dn_xlator->dx_members : NULL; m != NULL; m = m->dn_next)
		if (strcmp(m->dn_name, n->dn_name) == 0)
			break;
	if (m == NULL || x->dn_xlator->dx_argid == NULL)
		cg_error(cg, n, "translated member %s is not supported yet", n->dn_name);
	if (!dt_type_is_scalar(n->dn_type) && !is_string(n->dn_type))
		cg_error(
		    cg, n,
		    "translated member %s: only integer, pointer and string members can be used yet",
		    n->dn_name);
	xlate_input(cg, x->dn_left);
	push(cg, n);
	cg->cg_xarg = x->dn_xlator->dx_argid;
	cg->cg_xslot = dt_cg_slot_at(cg->cg_sp);
	dt_cg_expr(cg, m->dn_right);
	if (is_string(n->dn_type) && !is_string(m->dn_right->dn_type))
		/* a char array (T->comm) or pointer: the string it holds */
		dt_cg_string_from(cg, dt_cg_tmp_string(cg), true, dt_cg_may_scratch(m->dn_right));
	else if (!is_string(n->dn_type))
		normalize(cg, R0, n->dn_type);
	cg->cg_xarg = arg;
	cg->cg_xslot = slot;
	cg->cg_sp--; /* the input, no longer needed */
}

/* A folded constant as its type holds it (folding keeps 64 bits, as DIF). */
static uint64_t narrow_const(const dt_type_t *t, uint64_t v)
{
	size_t sz = tsize(t);

	if (t == NULL || !dt_type_is_int(t) || sz == 0 || sz >= 8)
		return v;
	if (dt_type_is_signed(t))
		return (uint64_t)((int64_t)(v << (64 - 8 * sz)) >> (64 - 8 * sz));
	return v & ((1ULL << (8 * sz)) - 1);
}

/* r0 = the value of n, normalised to its type */
void dt_cg_expr(dt_cg_t *cg, dt_node_t *n)
{
	cg_value(cg, n, false);
}

/*
 * A branch of ?: whose value is a string: NULL (c ? s : NULL) is 0 where
 * the whole may be NULL, else a fault at address 0, as using it in illumos.
 */
static void ternary_branch(dt_cg_t *cg, const dt_node_t *n, dt_node_t *b, bool nullok)
{
	if (is_string(n->dn_type) && !is_string(b->dn_type) && (b->dn_flags & DT_NF_CONST) &&
	    b->dn_value == 0) {
		emit(cg, KS_MOV64_IMM(R0, 0));
		if (!nullok)
			dt_cg_fault(cg, DT_FLT_BADADDR, R0);
		return;
	}
	dt_cg_expr(cg, b);
}

static void value(dt_cg_t *cg, dt_node_t *n, bool wide);

/*
 * An integer's (or a float's) computation leaves nothing in temporaries:
 * those it took are free again.  A string or pointer may be in one.
 */
static void cg_value(dt_cg_t *cg, dt_node_t *n, bool wide)
{
	uint32_t mark = cg->cg_tmp;

	value(cg, n, wide);
	if (n->dn_type != NULL && !is_string(n->dn_type) &&
	    (dt_type_is_int(n->dn_type) || dt_cg_is_float(n->dn_type)) &&
	    !dt_type_is_ptr(dt_type_resolve(n->dn_type)))
		cg->cg_tmp = mark;
}

/*
 * r0 = the value of n; wide: an arithmetic result may keep the 64 bits it
 * was computed in (for an operand of an arithmetic operator or comparison:
 * DIF narrows a value only when it is stored, loaded, cast or recorded).
 */
static void value(dt_cg_t *cg, dt_node_t *n, bool wide)
{
	const dt_type_t *t = n->dn_type;

	if ((n->dn_flags & DT_NF_CONST) && n->dn_kind != DT_N_STRING) {
		emit_imm64(cg, R0, wide ? n->dn_value : narrow_const(t, n->dn_value));
		return;
	}
	if (is_var_chars(n)) { /* r.name, self->buf: a string */
		lval_t lv = dt_cg_lvalue_of(cg, n);

		var_chars(cg, &lv);
		return;
	}
	switch (n->dn_kind) {
	case DT_N_INT:
		emit_imm64(cg, R0, wide ? n->dn_value : narrow_const(t, n->dn_value));
		return;
	case DT_N_STRING: dt_cg_string_literal(cg, n->dn_string, n->dn_strlen); return;
	case DT_N_IDENT:
		if (n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_BUILTIN) {
			dt_cg_builtin_var(cg, n);
			return;
		}
		if (n->dn_ident != NULL && n->dn_ident == cg->cg_xarg) { /* a translator's input */
			emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, cg->cg_xslot));
			return;
		}
		if (n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_SCALAR) {
			lval_t lv = lvalue(cg, n);

			lv_load(cg, &lv);
			return;
		}
		if (n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ENUM) {
			emit_imm64(cg, R0, (uint64_t)n->dn_ident->di_value);
			return;
		}
		cg_error(cg, n, "%s cannot be used in a program yet", n->dn_name);
	case DT_N_MEMBER:
		if (n->dn_left->dn_kind == DT_N_XLATE) {
			xlate_member(cg, n);
			return;
		}
		if (n->dn_left->dn_kind == DT_N_SELF || n->dn_left->dn_kind == DT_N_THIS) {
			lval_t lv = lvalue(cg, n);

			lv_load(cg, &lv);
			return;
		}
		if (n->dn_op == T_ARROW && n->dn_left->dn_kind == DT_N_IDENT &&
		    n->dn_left->dn_ident != NULL &&
		    n->dn_left->dn_ident->di_kind == DT_IDENT_BUILTIN &&
		    !dt_type_is_kernel(n->dn_left->dn_type)) {
			dt_cg_cur_info_member(cg, n);
			return;
		}
		if ((n->dn_op == T_ARROW || dt_cg_is_memory(n)) && (n->dn_flags & DT_NF_BITFIELD)) {
			mem_bitfield(cg, n);
			return;
		}
		if (n->dn_op == T_ARROW) { /* p->m: user memory */
			const dt_member_t *m;
			const dt_type_t *st =
			    dt_type_resolve(dt_type_resolve(n->dn_left->dn_type)->dtt_ref);

			m = dt_type_member(st, n->dn_name);
			if (m == NULL || m->dm_bits != 0 ||
			    (!dt_type_is_scalar(m->dm_type) && !dt_cg_is_float(m->dm_type)))
				cg_error(cg, n, "member %s: only scalar members can be read yet",
					 n->dn_name);
			dt_cg_expr(cg, n->dn_left);
			if (m->dm_off != 0)
				emit(cg, KS_ALU64_IMM(BPF_ADD, R0, (int32_t)m->dm_off));
			load_value_at(cg, m->dm_type, n->dn_left);
			return;
		}
		if (dt_cg_is_memory(n)) { /* (*p).m, p->a.b: memory */
			if (!dt_type_is_scalar(t) && !dt_cg_is_float(t))
				cg_error(cg, n,
					 "member %s: a struct or union in memory is used by its "
					 "members only",
					 n->dn_name);
			dt_cg_mem_address(cg, n);
			load_value_at(cg, t, n);
			return;
		}
		{ /* v.m: a member of a struct variable */
			lval_t lv = lvalue(cg, n);

			lv_load(cg, &lv);
			return;
		}
	case DT_N_INDEX:
		if (n->dn_left->dn_kind == DT_N_IDENT && n->dn_left->dn_ident != NULL &&
		    n->dn_left->dn_ident->di_func != NULL &&
		    n->dn_left->dn_ident->di_func->db_id == DT_B_ARGS) {
			int i = (int)n->dn_args->dn_value;

			dt_cg_probe_arg(cg, i, n);
			if (is_string(t)) /* a translated char *: the string it points to */
				dt_cg_user_string(cg, dt_cg_tmp_string(cg), true);
			else
				normalize(cg, R0, t);
			return;
		}
		if ((n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ARRAY) ||
		    (is_elem(n) && dt_cg_names_variable(n->dn_left))) {
			lval_t lv = lvalue(cg, n);

			lv_load(cg, &lv);
			return;
		}
		if (is_elem(n) && dt_cg_is_memory(n)) { /* p->vals[i], p->m[i][j] */
			dt_cg_mem_address(cg, n);
			load_value_at(cg, t, n);
			return;
		}
		if (dt_type_is_ptr(dt_type_resolve(n->dn_left->dn_type))) { /* p[i] */
			dt_cg_expr(cg, n->dn_args);
			push(cg, n);
			dt_cg_expr(cg, n->dn_left);
			pop(cg, R1);
			emit(cg, KS_ALU64_IMM(BPF_MUL, R1, (int32_t)tsize(t)));
			emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
			load_value_at(cg, t, n);
			return;
		}
		if (is_string(n->dn_left->dn_type)) { /* s[i]: a char, 0 past the end */
			dt_cg_str_operand(cg, n->dn_left);
			push(cg, n);
			dt_cg_expr(cg, n->dn_args);
			emit(cg, KS_MOV64_REG(R2, R0));
			pop(cg, R1);
			dt_cg_call_sub(cg, DT_SUBR_CHAR_AT);
			normalize(cg, R0, t);
			return;
		}
		if (n->dn_left->dn_kind == DT_N_IDENT && n->dn_left->dn_ident != NULL &&
		    n->dn_left->dn_ident->di_func != NULL &&
		    n->dn_left->dn_ident->di_func->db_id == DT_B_UREGS) {
			dt_cg_uregs_value(cg, n);
			return;
		}
		cg_error(cg, n, "this kind of index is not supported yet");
	case DT_N_UNARY:
		switch (n->dn_op) {
		case T_MINUS:
			cg_value(cg, n->dn_left, true);
			emit(cg, KS_ALU64_IMM(BPF_NEG, R0, 0));
			if (!wide || !dt_type_is_signed(t)) /* as the folding: unsigned is cut */
				normalize(cg, R0, t);
			return;
		case T_PLUS: cg_value(cg, n->dn_left, wide); return;
		case T_TILDE:
			cg_value(cg, n->dn_left, true);
			emit(cg, KS_ALU64_IMM(BPF_XOR, R0, -1));
			if (!wide || !dt_type_is_signed(t))
				normalize(cg, R0, t);
			return;
		case T_BANG: {
			int z = label(cg), done = label(cg);

			dt_cg_expr(cg, n->dn_left);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), z);
			emit(cg, KS_MOV64_IMM(R0, 0));
			jump(cg, done);
			place(cg, z);
			emit(cg, KS_MOV64_IMM(R0, 1));
			place(cg, done);
			return;
		}
		case T_STAR:
			if (!dt_type_is_scalar(t) && !dt_cg_is_float(t))
				cg_error(cg, n, "only scalars can be read through a pointer yet");
			dt_cg_expr(cg, n->dn_left);
			load_value_at(cg, t, n->dn_left);
			return;
		case T_INC:
		case T_DEC: dt_cg_assign(cg, n, n->dn_left, n->dn_op, NULL, false, false); return;
		case T_AMP:
			/*
			 * &p->m, &*p, &p[i], &(*p).m: the address the operand's memory
			 * is at (illumos' dt_cg_node DT_TOK_ADDROF: its lvalue's
			 * address); &v.m, &this->s.a[i]: the variable's storage
			 * (var_address).  The checker refuses & of a variable itself
			 * (D_ADDROF_VAR).
			 */
			if (!dt_cg_is_memory(n->dn_left)) {
				var_address(cg, n->dn_left);
				return;
			}
			dt_cg_mem_address(cg, n->dn_left);
			return;
		default: cg_error(cg, n, "operator %s is not supported yet", dt_tok_name(n->dn_op));
		}
	case DT_N_POSTFIX: dt_cg_assign(cg, n, n->dn_left, n->dn_op, NULL, true, false); return;
	case DT_N_BINARY:
		if (dt_tok_is_assign(n->dn_op)) {
			dt_cg_assign(cg, n, n->dn_left, n->dn_op, n->dn_right, false, false);
			return;
		}
		switch (n->dn_op) {
		case T_EQEQ:
		case T_NE:
		case T_LT:
		case T_LE:
		case T_GT:
		case T_GE: compare(cg, n); return;
		case T_LAND:
		case T_LOR: {
			int out = label(cg), done = label(cg);
			bool and = n->dn_op == T_LAND;

			dt_cg_expr(cg, n->dn_left);
			emit_to(cg, KS_JMP_IMM(and? BPF_JEQ : BPF_JNE, R0, 0, 0), out);
			dt_cg_expr(cg, n->dn_right);
			emit_to(cg, KS_JMP_IMM(and? BPF_JEQ : BPF_JNE, R0, 0, 0), out);
			emit(cg, KS_MOV64_IMM(R0, and? 1 : 0));
			jump(cg, done);
			place(cg, out);
			emit(cg, KS_MOV64_IMM(R0, and? 0 : 1));
			place(cg, done);
			return;
		}
		case T_LXOR: {
			int a = label(cg), b = label(cg);

			dt_cg_expr(cg, n->dn_left);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), a);
			emit(cg, KS_MOV64_IMM(R0, 1));
			place(cg, a);
			push(cg, n);
			dt_cg_expr(cg, n->dn_right);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), b);
			emit(cg, KS_MOV64_IMM(R0, 1));
			place(cg, b);
			pop(cg, R1);
			emit(cg, KS_ALU64_REG(BPF_XOR, R0, R1));
			return;
		}
		case T_COMMA:
			dt_cg_expr(cg, n->dn_left);
			dt_cg_expr(cg, n->dn_right);
			return;
		default:
			cg_value(cg, n->dn_left, true);
			push(cg, n);
			cg_value(cg, n->dn_right, true);
			pop(cg, R1);
			arith(cg, n->dn_op, n->dn_left->dn_type, n->dn_right->dn_type, t, wide,
			      const_divisor(n->dn_right));
			emit(cg, KS_MOV64_REG(R0, R1));
			return;
		}
	case DT_N_TERNARY: {
		int no = label(cg), done = label(cg);
		bool nullok = cg->cg_nullnode == n; /* a NULL branch is the whole's */

		cg->cg_nullnode = NULL;
		dt_cg_expr(cg, n->dn_cond);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), no);
		cg->cg_nullnode = nullok ? n->dn_left : NULL;
		ternary_branch(cg, n, n->dn_left, nullok);
		jump(cg, done);
		place(cg, no);
		cg->cg_nullnode = nullok ? n->dn_right : NULL;
		ternary_branch(cg, n, n->dn_right, nullok);
		cg->cg_nullnode = NULL;
		place(cg, done);
		return;
	}
	case DT_N_CAST:
		if (is_string(t) && !is_string(n->dn_left->dn_type)) { /* as stringof */
			dt_cg_str_operand(cg, n->dn_left);
			return;
		}
		dt_cg_expr(cg, n->dn_left);
		if (dt_type_is_int(t))
			normalize(cg, R0, t);
		return;
	case DT_N_STRINGOF:
		/*
		 * illumos reads the string at the value (an integer or a
		 * pointer) as an address, so stringof(42) faults at 0x2a; the
		 * address space here is the traced process's (or scratch
		 * memory's: stringof(copyin(p, n))).
		 */
		dt_cg_str_operand(cg, n->dn_left);
		return;
	case DT_N_CALL: dt_cg_call(cg, n); return;
	case DT_N_XLATE: /* xlate<T *>(e) as a value: this->p = curpsinfo */
		if (dt_type_is_ptr(t)) {
			xlate_pointer(cg, n);
			return;
		}
		break; /* a struct's is built where it is assigned or traced */
	default: break;
	}
	cg_error(cg, n, "this expression is not supported in a program yet");
}
