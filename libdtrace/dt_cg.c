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
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dt_program.h"
#include "ks.h"

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R4 BPF_REG_4
#define R5 BPF_REG_5
#define R6 BPF_REG_6
#define R7 BPF_REG_7
#define R8 BPF_REG_8
#define R9 BPF_REG_9
#define FP BPF_REG_10

#define SLOT_TMP   (-8) /* an 8-byte temporary (helper output) */
#define SLOT_FIRST 2	/* spill slot n at r10 - 8n */
#define SLOT_MAX   48

/* A scratch address: an offset in a region of the scratch value (dt_region_t). */
#define SA(rg, off) (((uint32_t)(rg) << 24) | (uint32_t)(off))
#define SA_RG(a)    ((uint32_t)(a) >> 24)
#define SA_OFF(a)   ((uint32_t)(a)&0xffffffu)
#define OFF(a)	    ((int16_t)SA_OFF(a)) /* for an instruction's off field */
#define IMM(a)	    ((int32_t)SA_OFF(a)) /* for its imm */

typedef enum { V_GLOBAL, V_THIS, V_SELF, V_ARRAY } vkind_t;

typedef struct dt_var {
	vkind_t v_kind;
	uint32_t v_off;	 /* globals: in the state value; this->: in DT_SR_THIS */
	uint32_t v_size; /* 8, strsize for strings, a struct's size rounded up to 8 */
	uint32_t v_id;	 /* dynamic variables */
	bool v_string;
	bool v_sou; /* a struct, union or array: its members and elements are read and written */
	uint32_t v_map; /* a dynamic struct or union: its map, ps_souvars[v_map] */
} dt_var_t;

typedef struct dt_cg {
	const dt_ident_t *cg_xarg; /* a translator's input, while its member is computed */
	int16_t cg_xslot;	   /* the stack slot holding its value */
	dt_pcb_t *cg_pcb;
	dt_pstate_t *cg_ps;
	dt_frag_t *cg_fr;
	uint32_t cg_strsize;
	const dt_loc_t *cg_loc; /* for errors without a node */
	/* the clause */
	dt_stmt_t *cg_st;
	uint32_t cg_recoff;
	int cg_action;
	int cg_sp;
	uint32_t cg_tmp;	      /* temporaries in use: the top of their stack (tmp_string) */
	const dt_node_t *cg_nullnode; /* a string expression that may be NULL (str_nullable) */
	int cg_lfault;
	bool cg_faults; /* the clause jumps to its fault block */
	bool cg_exits;	/* the clause calls exit() */
} dt_cg_t;

static _Noreturn void cg_verror(dt_cg_t *cg, const dt_node_t *n, const char *tag, const char *fmt,
				va_list ap) __attribute__((format(printf, 4, 0)));
static _Noreturn void cg_verror(dt_cg_t *cg, const dt_node_t *n, const char *tag, const char *fmt,
				va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	dt_cerror(cg->cg_pcb, n != NULL ? &n->dn_loc : cg->cg_loc, tag, "%s", msg);
}

static _Noreturn void cg_verror_tag(dt_cg_t *cg, const dt_node_t *n, const char *tag,
				    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static _Noreturn void cg_verror_tag(dt_cg_t *cg, const dt_node_t *n, const char *tag,
				    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_verror(cg, n, tag, fmt, ap);
}

/* What code generation cannot do yet: D_UNSUPPORTED at the construct. */
static _Noreturn void cg_error(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void cg_error(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_verror(cg, n, "D_UNSUPPORTED", fmt, ap);
}

/* What BPF cannot hold (the stack, a jump, a map value): D_CG_LIMIT. */
static _Noreturn void cg_limit(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void cg_limit(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_verror(cg, n, "D_CG_LIMIT", fmt, ap);
}

static void emit(dt_cg_t *cg, struct bpf_insn i)
{
	dt_frag_emit(cg->cg_fr, i);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

/* i, whose off (a load or store) or imm (an ALU operation) holds scratch address a's offset */
static void emit_sa(dt_cg_t *cg, struct bpf_insn i, uint32_t a)
{
	emit(cg, i);
	if (SA_RG(a) != DT_SR_REC)
		dt_frag_reloc(cg->cg_fr, DT_RL_SCR, SA_RG(a));
}

/* i with a relocation */
static void emit_rel(dt_cg_t *cg, struct bpf_insn i, dt_rlkind_t kind, uint32_t arg)
{
	emit(cg, i);
	dt_frag_reloc(cg->cg_fr, kind, arg);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

static void emit_imm64(dt_cg_t *cg, int reg, uint64_t v)
{
	if ((int64_t)v == (int32_t)v) {
		emit(cg, KS_MOV64_IMM(reg, (int32_t)v));
	} else {
		struct bpf_insn i[2] = { KS_LD_IMM64(reg, v) };

		emit(cg, i[0]);
		emit(cg, i[1]);
	}
}

/* reg = the map (a dt_mapid_t, DT_MAP_AGG or DT_MAP_SOU), when the program loads */
static void emit_map(dt_cg_t *cg, int reg, uint32_t map)
{
	struct bpf_insn i[2] = { KS_LD_MAP_FD(reg, 0) };

	emit_rel(cg, i[0], DT_RL_MAP, map);
	emit(cg, i[1]);
}

static void emit_pseudo(dt_cg_t *cg, const dt_pseudo_t *px)
{
	dt_frag_pseudo(cg->cg_fr, px);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

static size_t here(dt_cg_t *cg)
{
	return cg->cg_fr->fr_len;
}

/* ---------------------------------------------------------------- labels */

static int label(dt_cg_t *cg)
{
	int l = dt_frag_label(cg->cg_fr);

	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
	return l;
}

static void place(dt_cg_t *cg, int l)
{
	dt_frag_place(cg->cg_fr, l);
}

/* A jump (or call) whose offset is fixed when the program is linked. */
static void emit_to(dt_cg_t *cg, struct bpf_insn i, int l)
{
	dt_frag_emit_to(cg->cg_fr, i, l);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

static void jump(dt_cg_t *cg, int l)
{
	emit_to(cg, KS_JA(0), l);
}

/* ---------------------------------------------------------------- spills */

static void push(dt_cg_t *cg, const dt_node_t *n)
{
	if (++cg->cg_sp > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	emit(cg, KS_STX_MEM(BPF_DW, FP, R0, (int16_t)(-8 * (cg->cg_sp + SLOT_FIRST - 1))));
}

static void pop(dt_cg_t *cg, int reg)
{
	emit(cg, KS_LDX_MEM(BPF_DW, reg, FP, (int16_t)(-8 * (cg->cg_sp + SLOT_FIRST - 1))));
	cg->cg_sp--;
}

/* ---------------------------------------------------------------- types */

static size_t tsize(const dt_type_t *t)
{
	return t != NULL ? dt_type_size(t) : 8;
}

static bool is_string(const dt_type_t *t)
{
	return t != NULL && dt_type_is_string(t);
}

/* Bring reg to type t: sign- or zero-extend from its size (_Bool: 0 or 1). */
static void normalize(dt_cg_t *cg, int reg, const dt_type_t *t)
{
	size_t sz = tsize(t);
	const dt_type_t *r = t != NULL ? dt_type_resolve(t) : NULL;

	if (r != NULL && r->dtt_kind == DT_TK_FLOAT && sz == 4) { /* a float's bits */
		dt_frag_extend(cg->cg_fr, reg, 4, false);
		return;
	}
	if (t == NULL || sz >= 8 || sz == 0 || !dt_type_is_int(t))
		return;
	if (r->dtt_kind == DT_TK_INT && r->dtt_name != NULL && strcmp(r->dtt_name, "_Bool") == 0) {
		int zero = label(cg); /* as C converts to _Bool: any other value is 1 */

		emit_to(cg, KS_JMP_IMM(BPF_JEQ, reg, 0, 0), zero);
		emit(cg, KS_MOV64_IMM(reg, 1));
		place(cg, zero);
		return;
	}
	emit(cg, KS_ALU64_IMM(BPF_LSH, reg, (int32_t)(64 - 8 * sz)));
	emit(cg,
	     KS_ALU64_IMM(dt_type_is_signed(t) ? BPF_ARSH : BPF_RSH, reg, (int32_t)(64 - 8 * sz)));
}

static void extend(dt_cg_t *cg, int reg, size_t sz, bool sign)
{
	dt_frag_extend(cg->cg_fr, reg, sz, sign);
}

static int bpf_size(size_t sz)
{
	return sz == 1 ? BPF_B : sz == 2 ? BPF_H : sz == 4 ? BPF_W : BPF_DW;
}

/* After the usual arithmetic conversions, is a comparison of a and b unsigned? */
static bool cmp_unsigned(const dt_type_t *a, const dt_type_t *b)
{
	bool pa = dt_type_is_ptr(a), pb = dt_type_is_ptr(b);
	size_t sa = tsize(a), sb = tsize(b);
	bool ua, ub;

	if (pa || pb)
		return true;
	ua = !dt_type_is_signed(a) && sa >= 4;
	ub = !dt_type_is_signed(b) && sb >= 4;
	sa = sa < 4 ? 4 : sa;
	sb = sb < 4 ? 4 : sb;
	if (ua == ub)
		return ua;
	return ua ? sa >= sb : sb >= sa;
}

/* ---------------------------------------------------------------- faults */

/* The error record of a fault (addrreg: the address, or -1), then the fault block. */
static void fault(dt_cg_t *cg, int kind, int addrreg)
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
static bool is_float(const dt_type_t *t)
{
	const dt_type_t *r = t != NULL ? dt_type_resolve(t) : NULL;

	return r != NULL && r->dtt_kind == DT_TK_FLOAT && r->dtt_size <= 8;
}

static void load_value(dt_cg_t *cg, const dt_type_t *t)
{
	if (t != NULL && dt_type_resolve(t)->dtt_kind == DT_TK_ARRAY)
		return;
	load_user(cg, tsize(t),
		  dt_type_is_signed(t) && !is_float(t)); /* a float's bits as they are */
}

/* ---------------------------------------------------------------- scratch memory */

/*
 * alloca() and copyin() give out memory of the alloca region (DT_SR_ALLOCA,
 * dt_program.h), scratchsize bytes a clause (-x scratchsize, 4096 if not
 * set; illumos gives what is left of the buffer).  The first clause that
 * allocates fixes the size for the handle, as the first compile fixes
 * strsize.
 */
static uint32_t scratch_limit(const dt_cg_t *cg)
{
	uint64_t s = dt_option_get(cg->cg_pcb->pcb_hdl, "scratchsize", 4096);

	if (cg->cg_ps->ps_scratchsize != 0)
		return cg->cg_ps->ps_scratchsize;
	return s < 8 ? 8 : s > 8192 ? 8192 : (uint32_t)((s + 7) & ~7ull);
}

static uint32_t scratch_use(dt_cg_t *cg)
{
	if (cg->cg_ps->ps_scratchsize == 0)
		cg->cg_ps->ps_scratchsize = scratch_limit(cg);
	return cg->cg_ps->ps_scratchsize;
}

/*
 * reg = the address of the alloca region's data as a number: a map value
 * pointer stored and read back (the verifier lets a privileged program
 * store one), so that it can be kept in variables, traced and compared.
 */
static void alloca_base(dt_cg_t *cg, int reg)
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
static void allocate(dt_cg_t *cg)
{
	uint32_t lim = scratch_use(cg), u = SA(DT_SR_ALLOCA, DT_ALLOCA_USED);
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
	fault(cg, DT_FLT_NOSCRATCH, -1);
	place(cg, ok);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R1, OFF(u)), u);
}

/*
 * The destination of a copy into scratch memory (copyinto, bcopy): the
 * address in r0 must lie in what this clause allocated, with r9 bytes
 * after it (illumos' dtrace_inscratch), else a bad address fault on it.
 * Then r1 = a pointer to it the verifier can bound; r9 stays the size.
 */
static void scratch_dest(dt_cg_t *cg)
{
	uint32_t lim = scratch_use(cg), u = SA(DT_SR_ALLOCA, DT_ALLOCA_USED),
		 d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
	int ok = label(cg), bad = label(cg);

	emit(cg, KS_MOV64_REG(R2, R0));
	alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_SUB, R2, R1)); /* the offset in the data */
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R2, (int32_t)lim, 0), bad);
	emit_to(cg, KS_JMP_IMM(BPF_JGT, R9, (int32_t)lim, 0), bad);
	emit(cg, KS_MOV64_REG(R3, R2));
	emit(cg, KS_ALU64_REG(BPF_ADD, R3, R9));
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R4, R8, OFF(u)), u);
	emit_to(cg, KS_JMP_REG(BPF_JLE, R3, R4, 0), ok);
	place(cg, bad);
	emit(cg, KS_MOV64_REG(R9, R0));
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(d)), d);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R2));
}

/*
 * Call helper (a probe_read_user one) on the source address in r3, or its
 * probe_read_kernel twin when r3 points into the alloca region: memory
 * alloca() or copyin() gave, which D reads as illumos reads its scratch
 * memory.  Comparing a number with a map value pointer needs a
 * privileged program, as tracing does.  r4 clobbered.
 */
static void read_any(dt_cg_t *cg, int helper)
{
	uint32_t d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
	int user = label(cg), done = label(cg);
	int kernel = helper == BPF_FUNC_probe_read_user_str ? BPF_FUNC_probe_read_kernel_str
							    : BPF_FUNC_probe_read_kernel;

	emit(cg, KS_MOV64_REG(R4, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R4, IMM(d)), d);
	emit_to(cg, KS_JMP_REG(BPF_JLT, R3, R4, 0), user);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R4, (int32_t)scratch_limit(cg)));
	emit_to(cg, KS_JMP_REG(BPF_JGE, R3, R4, 0), user);
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

/* alloca(), copyin(), or a variable (which may hold what they gave) */
static bool may_hold_scratch(const dt_node_t *n)
{
	return is_alloc(n) ||
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
static bool may_scratch(const dt_node_t *n)
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
	read_any(cg, BPF_FUNC_probe_read_user);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_LDX_MEM(bpf_size(sz), R0, FP, SLOT_TMP));
	extend(cg, R0, sz, sign);
}

/* r0 = the value of type t at the address in r0, which addr computed. */
static void load_value_at(dt_cg_t *cg, const dt_type_t *t, const dt_node_t *addr)
{
	if (!may_scratch(addr)) {
		load_value(cg, t);
		return;
	}
	if (t != NULL && dt_type_resolve(t)->dtt_kind == DT_TK_ARRAY)
		return;
	load_any(cg, tsize(t), dt_type_is_signed(t) && !is_float(t));
}

/* ---------------------------------------------------------------- variables */

/*
 * A struct, union or array (int a[4], a char name[16] member): a variable
 * of such a type keeps its bytes, as C lays them out, and is reached by
 * its members and elements.
 */
static bool is_blob(const dt_type_t *t)
{
	const dt_type_t *r = dt_type_resolve(t);

	return r != NULL && (dt_type_is_sou(r) || r->dtt_kind == DT_TK_ARRAY);
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
		bool str = is_string(t), sou = t != NULL && is_blob(t);
		uint32_t size = sou   ? (uint32_t)((tsize(t) + 7) & ~(size_t)7)
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
	    !is_float(t))
		cg_error(cg, n, "variables of this type are not supported yet");
	if (t != NULL && is_blob(t) && (tsize(t) == 0 || tsize(t) > 4096))
		cg_limit(cg, n, "a struct, union or array variable must have 1 to 4096 bytes");
	if ((v = dt_arena_alloc(&ps->ps_arena, sizeof(*v))) == NULL ||
	    dt_pstate_insert(ps, key, v) != 0)
		dt_cnomem(cg->cg_pcb);
	v->v_kind = kind;
	v->v_string = is_string(t);
	v->v_sou = t != NULL && is_blob(t);
	v->v_size = v->v_string ? cg->cg_strsize
		    : v->v_sou	? (uint32_t)((tsize(t) + 7) & ~(size_t)7)
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
static uint32_t tmp_string(dt_cg_t *cg)
{
	uint32_t off = cg->cg_tmp;

	cg->cg_tmp += cg->cg_strsize;
	if (cg->cg_tmp > cg->cg_ps->ps_tmpsize)
		cg->cg_ps->ps_tmpsize = cg->cg_tmp;
	return SA(DT_SR_TMP, off);
}

/* The scratch address the next temporary will have, without taking it. */
static uint32_t tmp_next(const dt_cg_t *cg)
{
	return SA(DT_SR_TMP, cg->cg_tmp);
}

/*
 * r0 = a subroutine's string result, made at off above its arguments'
 * temporaries and moved down to to, where they began (they are free once
 * it is made): so a nesting f(g(h(s))) holds two temporaries, not one a
 * level.  One string copy, which costs the verifier nothing per byte.
 */
static void result_down(dt_cg_t *cg, uint32_t to, uint32_t off)
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
static void emit_lookup0(dt_cg_t *cg, uint32_t map)
{
	emit(cg, KS_ST_MEM(BPF_W, FP, SLOT_TMP, 0));
	emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R2, SLOT_TMP));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
}

/* Count one drop of a kind in this CPU's dt_drops value (r0-r5 clobbered). */
static void count_drop(dt_cg_t *cg, int kind)
{
	int out = label(cg);

	emit_lookup0(cg, DT_MAP_DROPS);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), out);
	emit(cg, KS_MOV64_IMM(R1, 1));
	emit(cg, KS_ATOMIC_ADD64(R0, R1, (int16_t)(kind * 8)));
	place(cg, out);
}

/*
 * Copy the string at r0 to base+off, strsize bytes (off a scratch address
 * when base is r8, else an offset in the state value); r0 keeps the source.
 */
static void copy_string(dt_cg_t *cg, int base, uint32_t off)
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

static void cg_expr(dt_cg_t *cg, dt_node_t *n);
static void cg_value(dt_cg_t *cg, dt_node_t *n, bool wide);
static void str_operand(dt_cg_t *cg, dt_node_t *n);
static void blob_src(dt_cg_t *cg, dt_node_t *n);
static void blob_read(dt_cg_t *cg, const dt_node_t *n);

/* Compute keys, each waiting on the stack; returns how many. */
static int eval_keys(dt_cg_t *cg, dt_node_t *keys)
{
	int nk = 0;

	for (dt_node_t *kn = keys; kn != NULL; kn = kn->dn_next, nk++) {
		if (is_blob(kn->dn_type)) /* a struct key: its address */
			blob_src(cg, kn);
		else
			cg_expr(cg, kn);
		push(cg, kn);
	}
	return nk;
}

/* Zero the scratch key buffer's first size bytes. */
static void zero_key(dt_cg_t *cg, uint32_t size)
{
	for (uint32_t z = 0; z < size; z += 8)
		emit_sa(cg, KS_ST_MEM(BPF_DW, R8, (int16_t)z, 0), SA(DT_SR_KEY, 0));
}

/*
 * Store the nk keys eval_keys() left on the stack in the scratch key
 * buffer from offset off, in order (the first pushed is deepest), and pop
 * them.  Returns the offset after the last key.
 */
static uint32_t store_keys(dt_cg_t *cg, dt_node_t *keys, int nk, uint32_t off)
{
	dt_node_t *ki = keys;

	for (int i = 0; i < nk; i++, ki = ki->dn_next) {
		int slot = cg->cg_sp - (nk - 1 - i);

		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, (int16_t)(-8 * (slot + SLOT_FIRST - 1))));
		if (is_string(ki->dn_type)) {
			copy_string(cg, R8, SA(DT_SR_KEY, off));
			off += cg->cg_strsize;
		} else if (is_blob(ki->dn_type)) { /* a struct's bytes (tst.StructAssoc.d) */
			size_t sz = tsize(ki->dn_type);

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
 * dvars map's: as large as the largest of the program's, zeroed whole.
 */
static void dyn_key(dt_cg_t *cg, const dt_var_t *v, dt_node_t *keys)
{
	uint32_t k = SA(DT_SR_KEY, 0);
	int nk = eval_keys(cg, keys);

	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_KEYZERO });
	emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(k), (int32_t)v->v_id), k);
	if (v->v_kind == V_SELF) {
		emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(k + 8)), k);
	}
	store_keys(cg, keys, nk, 16);
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

	dyn_key(cg, v, keys);
	emit_map(cg, R1, DT_MAP_DVARS);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(k)), k);
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	if (v->v_string) {
		cg->cg_nullnode = NULL;
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), done);
		if (!nullok)
			fault(cg, DT_FLT_BADADDR, R0);
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
	count_drop(cg, DT_DROP_DYN);
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
	dyn_key(cg, v, keys);
	pop(cg, R0);
	emit(cg, KS_MOV64_REG(R9, R0));
	if (v->v_string) {
		int put = label(cg), done = label(cg);

		/* NULL deletes it, as illumos's dtrace_dynvar() for a 0 value */
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), put);
		dyn_put(cg, true);
		jump(cg, done);
		place(cg, put);
		copy_string(cg, R8, SA(DT_SR_VAL, 0));
		dyn_put(cg, false);
		place(cg, done);
	} else {
		normalize(cg, R0, t);
		dyn_put(cg, true);
	}
	emit(cg, KS_MOV64_REG(R0, R9));
}

/* ---------------------------------------------------------------- lvalues */

#define LV_MAXIDX 8 /* indexes of one element: a[i][j], v.vals[i], a[i].in.c[j] */

typedef struct lval {
	dt_var_t *lv_var;
	dt_node_t *lv_keys; /* dynamic: the key list */
	const dt_type_t *lv_type;
	bool lv_member;		  /* a member or element of the struct, union or array in lv_var */
	uint32_t lv_moff;	  /* at this offset */
	const dt_node_t *lv_node; /* where, for errors */
	int lv_nidx;		  /* and lv_nidx run-time indexes, each element's offset added */
	int lv_bits, lv_bshift;	  /* a bit-field: its width, and its shift in the unit at lv_moff */
	struct {
		dt_node_t *ix_expr;
		uint32_t ix_esize, ix_nelems;
	} lv_idx[LV_MAXIDX];
} lval_t;

/* Is n a[i] of an array-typed operand (a scalar array, an array member), not a[k] of an associative array? */
static bool is_elem(const dt_node_t *n)
{
	return n->dn_kind == DT_N_INDEX &&
	       !(n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ARRAY) &&
	       n->dn_left->dn_type != NULL &&
	       dt_type_resolve(n->dn_left->dn_type)->dtt_kind == DT_TK_ARRAY;
}

/* Is n a variable, or a member (.) or element of a member ... of a variable? */
static bool names_variable(const dt_node_t *n)
{
	while (n->dn_kind == DT_N_MEMBER && n->dn_op != T_ARROW)
		n = n->dn_left;
	if (n->dn_kind == DT_N_SELF || n->dn_kind == DT_N_THIS)
		return true;
	if (n->dn_kind == DT_N_MEMBER) /* self->v, this->v, or p->m of memory */
		return n->dn_left->dn_kind == DT_N_SELF || n->dn_left->dn_kind == DT_N_THIS;
	if (is_elem(n))
		return names_variable(n->dn_left);
	return n->dn_ident != NULL &&
	       ((n->dn_kind == DT_N_IDENT && n->dn_ident->di_kind == DT_IDENT_SCALAR) ||
		(n->dn_kind == DT_N_INDEX && n->dn_ident->di_kind == DT_IDENT_ARRAY));
}

static bool is_memory(const dt_node_t *n);

/* Is n a char array a variable holds (char buf[32], r.name, self->r.tag), read as a string? */
static bool is_var_chars(const dt_node_t *n)
{
	const dt_type_t *t = dt_type_resolve(n->dn_type);
	const dt_type_t *e =
	    t != NULL && t->dtt_kind == DT_TK_ARRAY ? dt_type_resolve(t->dtt_ref) : NULL;

	return e != NULL && dt_type_is_int(e) && e->dtt_size == 1 && !is_memory(n) &&
	       names_variable(n);
}

static lval_t lvalue_of(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv = { .lv_type = n->dn_type, .lv_node = n };

	if (is_elem(n) && names_variable(n->dn_left)) {
		/* a[i], m[i][j], v.vals[i]: an element of an array variable or member */
		const dt_type_t *at = dt_type_resolve(n->dn_left->dn_type);

		if (is_string(n->dn_type) ||
		    (!is_blob(n->dn_type) && !dt_type_is_scalar(n->dn_type) &&
		     !is_float(n->dn_type)))
			cg_error(
			    cg, n,
			    "arrays of this element type are not supported yet (only integers, "
			    "pointers, structs, unions and arrays)");
		lv = lvalue_of(cg, n->dn_left);
		if (!lv.lv_var->v_sou)
			cg_error(cg, n, "this kind of index is not supported yet");
		if (lv.lv_nidx == LV_MAXIDX)
			cg_limit(cg, n, "an element may have %d indexes at most", LV_MAXIDX);
		lv.lv_idx[lv.lv_nidx].ix_expr = n->dn_args;
		lv.lv_idx[lv.lv_nidx].ix_esize = (uint32_t)tsize(n->dn_type);
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

		if (m == NULL || !names_variable(n->dn_left))
			cg_error(cg, n,
				 "the . operator is supported on variables only yet (not on "
				 "memory: p->m.x, (*p).m)");
		if (!is_blob(mt) && !is_float(mt) && !dt_type_is_scalar(mt))
			cg_error(
			    cg, n,
			    "member %s: only integer, pointer, array, struct and union members "
			    "of a variable can be used yet",
			    n->dn_name);
		lv = lvalue_of(cg, n->dn_left);
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
	lval_t lv = lvalue_of(cg, n);

	if (lv.lv_var->v_sou && (!lv.lv_member || is_blob(lv.lv_type)))
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
static void elem_offset(dt_cg_t *cg, const lval_t *lv)
{
	emit(cg, KS_MOV64_IMM(R0, (int32_t)lv->lv_moff));
	for (int i = 0; i < lv->lv_nidx; i++) {
		int ok = label(cg);

		push(cg, lv->lv_node);
		cg_expr(cg, lv->lv_idx[i].ix_expr);
		pop(cg, R2);
		emit(cg, KS_MOV64_REG(R9, R0));
		emit(cg, KS_ALU64_IMM(BPF_MUL, R9, (int32_t)lv->lv_idx[i].ix_esize));
		emit(cg, KS_ALU64_REG(BPF_ADD, R9, R2));
		emit_to(cg, KS_JMP_IMM(BPF_JLT, R0, (int32_t)lv->lv_idx[i].ix_nelems, 0), ok);
		fault(cg, DT_FLT_BADADDR, R9);
		place(cg, ok);
		emit(cg, KS_ALU64_IMM(BPF_MUL, R0, (int32_t)lv->lv_idx[i].ix_esize));
		emit(cg, KS_ALU64_REG(BPF_ADD, R0, R2));
	}
}

/* r1 = the address at offset r0 (elem_offset) in a global or this-> variable at base + off. */
static void elem_address(dt_cg_t *cg, uint32_t off, int base)
{
	emit(cg, KS_MOV64_REG(R1, base));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
}

/* Where a global (state, r7) or clause-local (scratch, r8) variable lives. */
static uint32_t var_place(const dt_cg_t *cg, const dt_var_t *v, int *base)
{
	(void)cg;
	*base = v->v_kind == V_GLOBAL ? R7 : R8;
	return v->v_kind == V_GLOBAL ? v->v_off : SA(DT_SR_THIS, v->v_off);
}

/* The map of a dynamic variable: its own for a struct or union. */
static uint32_t dvar_map(const dt_var_t *v)
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

/* r0 = the value of a member of a struct variable (0 where a dynamic one is absent). */
static void member_load(dt_cg_t *cg, const lval_t *lv)
{
	const dt_var_t *v = lv->lv_var;
	size_t sz = tsize(lv->lv_type);
	int base, done = label(cg);
	uint32_t off;

	if (lv->lv_nidx > 0) { /* a[i], v.vals[i]: at a run-time offset */
		elem_offset(cg, lv);
		if (v->v_kind == V_GLOBAL || v->v_kind == V_THIS) {
			off = var_place(cg, v, &base);
			elem_address(cg, off, base);
			emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R1, 0));
		} else {
			push(cg, lv->lv_node);
			dyn_key(cg, v, lv->lv_keys);
			emit_map(cg, R1, dvar_map(lv->lv_var));
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
		off = var_place(cg, v, &base) + lv->lv_moff;
		if (SA_OFF(off) > INT16_MAX)
			cg_limit(cg, lv->lv_node, "too many variables for one map value");
		emit_sa(cg, KS_LDX_MEM(bpf_size(sz), R0, base, OFF(off)), off);
		break;
	default:
		dyn_key(cg, v, lv->lv_keys);
		emit_map(cg, R1, dvar_map(lv->lv_var));
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
 */
static void get_or_make(dt_cg_t *cg, uint32_t map, uint32_t key, int drop)
{
	int have = label(cg), sp0 = cg->cg_sp;
	bool agg = map >= DT_MAP_AGG(1) && map < DT_MAP_SOU(0);

	/*
	 * An aggregation's map is found in the array of maps of its shape, at
	 * its id (dt_load.c, agg_outer), and kept on the stack for the calls.
	 */
	if (agg) {
		emit_map(cg, R1, map);
		emit(cg, KS_ST_MEM(BPF_W, FP, -8, (int32_t)(map - DT_MAP_AGG(0))));
		emit(cg, KS_MOV64_REG(R2, FP));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R2, -8));
		emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), drop);
		push(cg, NULL);
		emit(cg, KS_MOV64_REG(R1, R0));
	} else {
		emit_map(cg, R1, map);
	}
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
	emit_lookup0(cg, DT_MAP_ZERO);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), drop);
	emit(cg, KS_MOV64_REG(R3, R0));
	if (agg)
		emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, (int16_t)(-8 * (cg->cg_sp + SLOT_FIRST - 1))));
	else
		emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_MOV64_IMM(R4, BPF_NOEXIST));
	emit(cg, KS_CALL(BPF_FUNC_map_update_elem)); /* EEXIST: another CPU made it */
	if (agg)
		emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, (int16_t)(-8 * (cg->cg_sp + SLOT_FIRST - 1))));
	else
		emit_map(cg, R1, map);
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(key)), key);
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), drop);
	place(cg, have);
	cg->cg_sp = sp0; /* the slot is free again (nothing reads it after) */
}

/*
 * r0 = the element of a dynamic struct variable lv names, made zero-filled
 * if absent; a full table jumps to drop (which counts a dynamic drop).
 */
static void member_elem(dt_cg_t *cg, const lval_t *lv, int drop)
{
	dyn_key(cg, lv->lv_var, lv->lv_keys);
	get_or_make(cg, dvar_map(lv->lv_var), SA(DT_SR_KEY, 0), drop);
}

static int16_t slot_at(int sp)
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
	elem_offset(cg, lv);
	if (!lv_dynamic(lv)) {
		uint32_t off = var_place(cg, lv->lv_var, &base);

		elem_address(cg, off, base);
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

	normalize(cg, R0, lv->lv_type);
	if (lv->lv_nidx == 0 && lv->lv_bits == 0 &&
	    (v->v_kind == V_GLOBAL || v->v_kind == V_THIS)) {
		off = var_place(cg, v, &base) + lv->lv_moff;
		if (SA_OFF(off) > INT16_MAX)
			cg_limit(cg, n, "too many variables for one map value");
		emit_sa(cg, KS_STX_MEM(bpf_size(sz), base, R0, OFF(off)), off);
		return;
	}
	push(cg, n);
	slot = slot_at(cg->cg_sp);
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
		count_drop(cg, DT_DROP_DYN);
	}
	place(cg, done);
	pop(cg, R0); /* the value, on both paths */
}

static void arith(dt_cg_t *cg, dt_tok_t op, const dt_type_t *lt, const dt_type_t *rt,
		  const dt_type_t *t, bool wide);

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
	arith(cg, op, t, rhs != NULL ? rhs->dn_type : t, t, false);
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
		cg_expr(cg, (dt_node_t *)rhs);
		push(cg, n);
		s_rhs = slot_at(cg->cg_sp);
	}
	if (cg->cg_sp + 2 > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	s_ptr = slot_at(cg->cg_sp + 1);
	s_old = slot_at(cg->cg_sp + 2);
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
		count_drop(cg, DT_DROP_DYN);
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
		cg_expr(cg, (dt_node_t *)rhs);
		push(cg, n);
		s_rhs = slot_at(cg->cg_sp);
	}
	if (cg->cg_sp + 1 > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	s_old = slot_at(++cg->cg_sp);
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
		uint32_t off = var_place(cg, v, &base);

		if (v->v_string) {
			int ok = label(cg);

			emit(cg, KS_MOV64_REG(R0, base));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
			/* NULL (str_null_store): 0 where it may be, else a fault at 0 */
			emit_sa(cg, KS_LDX_MEM(BPF_H, R1, base, OFF(off)), off);
			emit_to(cg, KS_JMP_IMM(BPF_JNE, R1, STR_NULL_MARK, 0), ok);
			emit(cg, KS_MOV64_IMM(R0, 0));
			if (cg->cg_nullnode != lv->lv_node)
				fault(cg, DT_FLT_BADADDR, R0);
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
		uint32_t off = var_place(cg, v, &base);

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

/* ---------------------------------------------------------------- built-ins */

/* r0 = a temporary holding the string s (len bytes, cut at strsize - 1). */
static void string_literal(dt_cg_t *cg, const char *s, size_t len)
{
	dt_frag_string(cg->cg_fr, SA_OFF(tmp_string(cg)), s, len, cg->cg_strsize);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

/*
 * r0 = a temporary (scratch address off) holding the user string at the
 * address in r0, R2 bytes at most (set_len: strsize); a bad address faults.
 */
static void read_any(dt_cg_t *cg, int helper);

static void string_from(dt_cg_t *cg, uint32_t off, bool set_len, bool any)
{
	int ok = label(cg);

	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	if (set_len)
		emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
	if (any)
		read_any(cg, BPF_FUNC_probe_read_user_str);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user_str));
	emit_to(cg, KS_JMP_IMM(BPF_JSGT, R0, 0, 0), ok);
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

static void user_string(dt_cg_t *cg, uint32_t off, bool set_len)
{
	string_from(cg, off, set_len, false);
}

/*
 * r0 = argument i of the probe: how to read it is the probe's provider's
 * (a register, the stack, the error record), known when linking.
 */
static void probe_arg(dt_cg_t *cg, int i, const dt_node_t *n)
{
	(void)n;
	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_ARG,
					.px_arg = i,
					.px_action = cg->cg_action,
					.px_lfault = cg->cg_lfault });
	cg->cg_faults = true; /* a memory operand may fault */
}

/* reg += a kernel structure offset, known when the program loads. */
static void add_toff(dt_cg_t *cg, int reg, dt_toff_t which)
{
	emit_rel(cg, KS_ALU64_IMM(BPF_ADD, reg, 0), DT_RL_TOFF, which);
}

/*
 * r0 = a field of the current task_struct, found through pointers: each
 * offset of path but the last is added to what was read so far (the task
 * first) and gives a pointer; the last gives the sz bytes read (1, 2, 4 or
 * 8, zero-extended).  What cannot be read (a NULL mm) reads as 0.
 */
static void task_chain(dt_cg_t *cg, const dt_toff_t *path, int len, size_t sz)
{
	emit(cg, KS_CALL(BPF_FUNC_get_current_task));
	emit(cg, KS_MOV64_REG(R3, R0));
	for (int i = 0; i < len; i++) {
		size_t rsz = i == len - 1 ? sz : 8;

		add_toff(cg, R3, path[i]);
		emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
		emit(cg, KS_MOV64_REG(R1, FP));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)rsz));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		emit(cg, KS_LDX_MEM(bpf_size(rsz), i == len - 1 ? R0 : R3, FP, SLOT_TMP));
	}
}

/*
 * r0 = a string in a temporary: the 16-byte command name of the thread
 * (leader false: get_current_comm) or of its process's main thread.
 */
static void comm_string(dt_cg_t *cg, bool leader)
{
	uint32_t off = tmp_string(cg), len = cg->cg_strsize - 1;

	len = len < 16 ? len : 16;
	if (leader) {
		static const dt_toff_t path[] = { DT_TOFF_GROUP_LEADER };

		task_chain(cg, path, 1, 8);
		emit(cg, KS_MOV64_REG(R3, R0));
		add_toff(cg, R3, DT_TOFF_COMM);
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
		emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	} else {
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
		emit(cg, KS_MOV64_IMM(R2, (int32_t)len + 1)); /* the helper ends it with a NUL */
		emit(cg, KS_CALL(BPF_FUNC_get_current_comm));
	}
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off + len), 0), off);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

/*
 * r0 = the process's arguments as ps shows them (psinfo_t's pr_psargs):
 * the first 79 bytes of its argv strings, from mm->arg_start in its own
 * memory, NULs between them made spaces.  Empty where there are none (a
 * kernel thread) or they cannot be read.
 */
static void psargs_string(dt_cg_t *cg, const dt_node_t *n)
{
	static const dt_toff_t path[] = { DT_TOFF_MM };
	uint32_t off = tmp_string(cg), len = cg->cg_strsize - 1;
	int ok = label(cg), read = label(cg), loop = label(cg), next = label(cg), done = label(cg);

	len = len < 79 ? len : 79;
	task_chain(cg, path, 1, 8);
	emit(cg, KS_MOV64_REG(R9, R0));
	for (int i = 0; i < 2; i++) { /* arg_start, waiting on the stack, then arg_end in r0 */
		emit(cg, KS_MOV64_REG(R3, R9));
		add_toff(cg, R3, i == 0 ? DT_TOFF_ARG_START : DT_TOFF_ARG_END);
		emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
		emit(cg, KS_MOV64_REG(R1, FP));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
		emit(cg, KS_MOV64_IMM(R2, 8));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, SLOT_TMP));
		if (i == 0)
			push(cg, n);
	}
	pop(cg, R3);
	emit(cg, KS_MOV64_REG(R2, R0));
	emit(cg, KS_ALU64_REG(BPF_SUB, R2, R3)); /* the bytes to read: len at most */
	emit_to(cg, KS_JMP_IMM(BPF_JLE, R2, (int32_t)len, 0), ok);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R9, R2));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), read);
	emit(cg, KS_MOV64_IMM(R9, 0));
	place(cg, read);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R9));
	emit_sa(cg, KS_ST_MEM(BPF_B, R1, OFF(off), 0), off);
	/* the NULs before the last byte (the last argument's own NUL) become spaces */
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_ALU64_IMM(BPF_SUB, R2, 1));
	emit(cg, KS_MOV64_IMM(R3, 0));
	place(cg, loop);
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R3, (int32_t)len, 0), done);
	emit_to(cg, KS_JMP_REG(BPF_JSGE, R3, R2, 0), done);
	emit(cg, KS_MOV64_REG(R4, R8));
	emit(cg, KS_ALU64_REG(BPF_ADD, R4, R3));
	emit_sa(cg, KS_LDX_MEM(BPF_B, R5, R4, OFF(off)), off);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R5, 0, 0), next);
	emit_sa(cg, KS_ST_MEM(BPF_B, R4, OFF(off), ' '), off);
	place(cg, next);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R3, 1));
	jump(cg, loop);
	place(cg, done);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

/*
 * curpsinfo->m and curlwpsinfo->m: the members of psinfo_t and lwpsinfo_t
 * (dt_type.c), read from the current task as DTrace's translators read
 * them from the proc and kthread structures.
 */
static void cur_info_member(dt_cg_t *cg, dt_node_t *n)
{
	static const struct {
		const char *name;
		dt_toff_t path[3];
		int len;
	} chains[] = {
		{ "pr_ppid", { DT_TOFF_REAL_PARENT, DT_TOFF_TGID }, 2 },
		{ "pr_euid", { DT_TOFF_CRED, DT_TOFF_EUID }, 2 },
		{ "pr_egid", { DT_TOFF_CRED, DT_TOFF_EGID }, 2 },
		{ "pr_nlwp", { DT_TOFF_SIGNAL, DT_TOFF_NR_THREADS }, 2 },
		{ "pr_pgid", { DT_TOFF_SIGNAL, DT_TOFF_PGID_PID, DT_TOFF_PID_NR }, 3 },
		{ "pr_sid", { DT_TOFF_SIGNAL, DT_TOFF_SID_PID, DT_TOFF_PID_NR }, 3 },
	};
	const char *m = n->dn_name;
	char what[64];

	dt_bid_t id = n->dn_left->dn_ident->di_func->db_id;

	snprintf(what, sizeof(what), "%s->%s", n->dn_left->dn_name, m);
	if (id != DT_B_CURPSINFO && id != DT_B_CURLWPSINFO)
		cg_error(cg, n, "%s cannot be read here", what);
	if (id == DT_B_CURLWPSINFO) {
		if (strcmp(m, "pr_lwpid") == 0) {
			emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
			extend(cg, R0, 4, false);
		} else if (strcmp(m, "pr_onpro") == 0) {
			emit(cg, KS_CALL(BPF_FUNC_get_smp_processor_id));
		} else if (strcmp(m, "pr_name") == 0) {
			comm_string(cg, false);
		} else {
			cg_error(cg, n, "%s cannot be read here", what);
		}
		return;
	}
	if (strcmp(m, "pr_pid") == 0) {
		emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
	} else if (strcmp(m, "pr_uid") == 0 || strcmp(m, "pr_gid") == 0) {
		emit(cg, KS_CALL(BPF_FUNC_get_current_uid_gid));
		if (m[3] == 'g')
			emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
		else
			extend(cg, R0, 4, false);
	} else if (strcmp(m, "pr_fname") == 0) {
		comm_string(cg, true);
	} else if (strcmp(m, "pr_psargs") == 0) {
		psargs_string(cg, n);
	} else {
		for (size_t i = 0; i < sizeof(chains) / sizeof(chains[0]); i++)
			if (strcmp(m, chains[i].name) == 0) {
				task_chain(cg, chains[i].path, chains[i].len, 4);
				return;
			}
		cg_error(cg, n, "%s cannot be read here", what);
	}
}

/* r0 = the 8 bytes at r3 + the offset t, read from the kernel (0 if they cannot be); r1-r5 */
static void read_toff(dt_cg_t *cg, dt_toff_t t)
{
	add_toff(cg, R3, t);
	emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
	emit(cg, KS_MOV64_IMM(R2, 8));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, SLOT_TMP));
}

#define CWD_STEPS 40 /* dentries and mount crossings walked: deeper paths lose their top */

/*
 * cwd: the process's current directory, as illumos's DIF_VAR_CWD (the
 * path of p_user.u_cdir): task->fs->pwd's dentry names, walked up to the
 * root and crossing mounts (a mount's root is its mountpoint in its
 * parent mount), then written root first.  The walk is unrolled,
 * CWD_STEPS steps; its state (the dentry, the vfsmount, the names found
 * and their count) lives in scratch words, which keeps the verifier's
 * states alike from one step to the next.
 */
static void v_cwd(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t out = tmp_string(cg), w = tmp_string(cg), need = 32 + 8 * CWD_STEPS;
	uint32_t dent = w, mnt = w + 8, cnt = w + 16, tmp = w + 24, names = w + 32;
	int done = label(cg), end = label(cg), slash = label(cg);

	(void)n, (void)arg;
	for (uint32_t got = cg->cg_strsize; got < need; got += cg->cg_strsize)
		(void)tmp_string(cg);
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(out), 0), out);
	emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(cnt), 0), cnt);
	emit(cg, KS_CALL(BPF_FUNC_get_current_task));
	emit(cg, KS_MOV64_REG(R3, R0));
	read_toff(cg, DT_TOFF_FS);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(tmp)), tmp);
	emit(cg, KS_MOV64_REG(R3, R0));
	read_toff(cg, DT_TOFF_PWD_DENTRY);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(dent)), dent);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(tmp)), tmp);
	read_toff(cg, DT_TOFF_PWD_MNT);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(mnt)), mnt);
	for (int i = 0; i < CWD_STEPS; i++) {
		int notroot = label(cg), next = label(cg);

		emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(mnt)), mnt);
		read_toff(cg, DT_TOFF_MNT_ROOT);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(dent)), dent);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), done);
		emit_to(cg, KS_JMP_REG(BPF_JNE, R0, R1, 0), notroot);
		/* the root of its mount: on to the mountpoint, in the parent mount */
		emit(cg, KS_MOV64_IMM(R3, 0));
		add_toff(cg, R3, DT_TOFF_MOUNT_MNT);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R3, OFF(tmp)), tmp);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(mnt)), mnt);
		emit(cg, KS_ALU64_REG(BPF_SUB, R1, R3)); /* the struct mount */
		emit(cg, KS_MOV64_REG(R3, R1));
		read_toff(cg, DT_TOFF_MNT_PARENT);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(tmp)), tmp);
		emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1)); /* the parent's vfsmount */
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(mnt)), mnt);
		emit_to(cg, KS_JMP_REG(BPF_JEQ, R0, R1, 0), done); /* its own parent: the root */
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(tmp)), tmp);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(mnt)), mnt);
		emit(cg, KS_MOV64_IMM(R1, 0));
		add_toff(cg, R1, DT_TOFF_MOUNT_MNT);
		emit(cg, KS_ALU64_REG(BPF_SUB, R3, R1));
		read_toff(cg, DT_TOFF_MNT_MOUNTPT);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(dent)), dent);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(tmp)), tmp);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(mnt)), mnt);
		jump(cg, next);
		place(cg, notroot); /* a name, then up to the parent */
		emit(cg, KS_MOV64_REG(R3, R1));
		read_toff(cg, DT_TOFF_D_PARENT);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(dent)), dent);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
		emit_to(cg, KS_JMP_REG(BPF_JEQ, R0, R1, 0), done); /* a root that is not mounted */
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(tmp)), tmp);
		emit(cg, KS_MOV64_REG(R3, R1));
		read_toff(cg, DT_TOFF_D_NAME);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(cnt)), cnt);
		emit_to(cg, KS_JMP_IMM(BPF_JGE, R1, CWD_STEPS, 0), done);
		emit(cg, KS_MOV64_REG(R2, R1));
		emit(cg, KS_ALU64_IMM(BPF_LSH, R2, 3));
		emit(cg, KS_ALU64_REG(BPF_ADD, R2, R8));
		emit_sa(cg, KS_STX_MEM(BPF_DW, R2, R0, OFF(names)), names);
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, 1));
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R1, OFF(cnt)), cnt);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(tmp)), tmp);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(dent)), dent);
		place(cg, next);
	}
	place(cg, done);
	/* the names, the last found (nearest the root) first, each after a '/' */
	emit(cg, KS_MOV64_IMM(R9, 0));
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(cnt)), cnt);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), slash);
	for (int j = CWD_STEPS - 1; j >= 0; j--) {
		int skip = label(cg);

		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(cnt)), cnt);
		emit_to(cg, KS_JMP_IMM(BPF_JLE, R1, j, 0), skip);
		emit_to(cg, KS_JMP_IMM(BPF_JGT, R9, (int32_t)cg->cg_strsize - 2, 0), end);
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_REG(BPF_ADD, R1, R9));
		emit_sa(cg, KS_ST_MEM(BPF_B, R1, OFF(out), '/'), out);
		emit(cg, KS_ALU64_IMM(BPF_ADD, R9, 1));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(out)), out);
		emit(cg, KS_ALU64_REG(BPF_ADD, R1, R9));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
		emit(cg, KS_ALU64_REG(BPF_SUB, R2, R9));
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(names + 8 * (uint32_t)j)),
			names + 8 * (uint32_t)j);
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R0, 1, 0), end);
		emit(cg, KS_ALU64_REG(BPF_ADD, R9, R0));
		emit(cg, KS_ALU64_IMM(BPF_SUB, R9, 1));
		place(cg, skip);
	}
	jump(cg, end);
	place(cg, slash); /* the root itself */
	emit_sa(cg, KS_ST_MEM(BPF_H, R8, OFF(out), '/'), out);
	place(cg, end);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(out)), out);
}

/*
 * uregs[i]: the user registers the kernel saved for the thread
 * (bpf_task_pt_regs() of the current task: at a USDT probe, those of the
 * trap).  i is DTrace's amd64 numbering (illumos dtrace_getreg: 0 to 18
 * the i386 names, then 19 + the REG_* of <sys/regset.h>), here as the
 * offset of the register in x86-64's struct pt_regs.  Not there: the
 * data segment selectors (UR_SEL), which a 64-bit Linux process runs with
 * null (0); the fs and gs bases (UR_FSBASE, UR_GSBASE), kept in the
 * task's thread_struct; the trap number and error code (UR_NONE), which
 * Linux does not keep for a probe: refused.
 */
enum { UR_NONE = -1, UR_SEL = -2, UR_FSBASE = -3, UR_GSBASE = -4 };

static const int16_t uregs_off[DT_UREGS_MAX] = {
	UR_SEL, UR_SEL, UR_SEL,	 UR_SEL,  112,	   104,	      32,	 152, 40,  96,
	88,	80,	UR_NONE, UR_NONE, 128,	   136,	      144,	 152, 160, 0,
	8,	16,	24,	 48,	  56,	   64,	      72,	 112, 104, 32,
	40,	96,	88,	 80,	  UR_NONE, UR_NONE,   128,	 136, 144, 152,
	160,	UR_SEL, UR_SEL,	 UR_SEL,  UR_SEL,  UR_FSBASE, UR_GSBASE,
};

static void uregs_value(dt_cg_t *cg, dt_node_t *n)
{
	uint64_t i = n->dn_args->dn_value;
	int off = i < DT_UREGS_MAX ? uregs_off[i] : UR_NONE;

	if (off == UR_NONE)
		cg_error(cg, n,
			 "uregs[%llu] is not supported: Linux keeps no trap number or "
			 "error code for a probe",
			 (unsigned long long)i);
	if (off == UR_SEL) {
		emit(cg, KS_MOV64_IMM(R0, 0));
		return;
	}
	if (off == UR_FSBASE || off == UR_GSBASE) {
		static const dt_toff_t fs[] = { DT_TOFF_FSBASE }, gs[] = { DT_TOFF_GSBASE };

		task_chain(cg, off == UR_FSBASE ? fs : gs, 1, 8);
		return;
	}
	emit(cg, KS_CALL(BPF_FUNC_get_current_task_btf));
	emit(cg, KS_MOV64_REG(R1, R0));
	emit(cg, KS_CALL(BPF_FUNC_task_pt_regs));
	emit(cg, KS_LDX_MEM(BPF_DW, R0, R0, (int16_t)off));
}

/* ---------------------------------------------------------------- built-in variables */

/*
 * The generators of built-ins, by id (the table at the end of the file):
 * a variable's and a subroutine's leave the value in r0, an action's
 * records what the consumer acts on.  arg is the row's g_arg.
 */
typedef void cg_gen_f(dt_cg_t *cg, dt_node_t *n, int arg);

static void v_arg(dt_cg_t *cg, dt_node_t *n, int i)
{
	probe_arg(cg, i, n);
}

/* pid (arg 1: the upper half of pid_tgid) and tid; gid (1) and uid */
static void v_upper_lower(dt_cg_t *cg, dt_node_t *n, int arg)
{
	bool ids =
	    n->dn_ident->di_func->db_id == DT_B_UID || n->dn_ident->di_func->db_id == DT_B_GID;

	emit(cg, KS_CALL(ids ? BPF_FUNC_get_current_uid_gid : BPF_FUNC_get_current_pid_tgid));
	if (arg)
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
	else
		extend(cg, R0, 4, false);
}

static void v_ppid(dt_cg_t *cg, dt_node_t *n, int arg)
{
	static const dt_toff_t path[] = { DT_TOFF_REAL_PARENT, DT_TOFF_TGID };

	(void)n, (void)arg;
	task_chain(cg, path, 2, 4);
}

static void v_vtimestamp(dt_cg_t *cg, dt_node_t *n, int arg)
{
	static const dt_toff_t path[] = { DT_TOFF_SUM_EXEC };

	(void)n, (void)arg;
	task_chain(cg, path, 1, 8);
}

/* errno: kept per thread by dt_cg_errno_prog() */
static void v_errno(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int none = label(cg);

	(void)n, (void)arg;
	if (!cg->cg_ps->ps_use_errno) { /* the watcher's program, made once */
		dt_cg_errno_prog(&cg->cg_ps->ps_errno);
		cg->cg_ps->ps_use_errno = true;
	}
	emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
	emit(cg, KS_STX_MEM(BPF_W, FP, R0, SLOT_TMP));
	emit_map(cg, R1, DT_MAP_ERRNO);
	emit(cg, KS_MOV64_REG(R2, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R2, SLOT_TMP));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), none);
	emit(cg, KS_LDX_MEM(BPF_W, R0, R0, 0));
	place(cg, none);
}

/* r0 = what a helper without arguments returns (cpu, timestamp) */
static void v_helper(dt_cg_t *cg, dt_node_t *n, int helper)
{
	(void)n;
	emit(cg, KS_CALL(helper));
}

static void v_walltimestamp(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	emit(cg, KS_CALL(BPF_FUNC_ktime_get_ns));
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R7, DT_ST_WALLOFF));
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
}

/* execname: the thread's command name, as curlwpsinfo->pr_name (cut at strsize - 1) */
static void v_execname(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	comm_string(cg, false);
}

/* probeprov (0), probemod, probefunc, probename: a string each probe writes in its program */
static void v_probestr(dt_cg_t *cg, dt_node_t *n, int which)
{
	(void)n;
	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_PROBESTR,
					.px_arg = which,
					.px_off = SA_OFF(tmp_string(cg)) });
}

/*
 * caller: illumos gives the kernel PC that called the probed kernel
 * function.  No probe here is in a kernel function (BEGIN, END, profile,
 * USDT: illumos's own would give a PC of its probe machinery, dtrace's
 * ioctl or the trap), so it is 0.
 */
static void v_zero(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	emit(cg, KS_MOV64_IMM(R0, 0));
}

/*
 * ucaller: as illumos's DIF_VAR_UCALLER, the user stack's second entry
 * (dtrace_getupcstack(): the PC, then the caller), which the kernel's
 * stack walk finds through the frame pointers as illumos's does; 0 when
 * there is none.  bpf_get_stack() zeroes what it does not fill.
 */
static void v_ucaller(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t off = tmp_string(cg);

	(void)n, (void)arg;
	if (cg->cg_strsize < 16)
		(void)tmp_string(cg);
	emit(cg, KS_MOV64_REG(R1, R6));
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R3, 16));
	emit(cg, KS_MOV64_IMM(R4, BPF_F_USER_STACK));
	emit(cg, KS_CALL(BPF_FUNC_get_stack));
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(off) + 8), off);
}

/* id, epid: a constant of the probe's, known when linking */
static void v_reloc(dt_cg_t *cg, dt_node_t *n, int kind)
{
	(void)n;
	emit_rel(cg, KS_MOV64_IMM(R0, 0), (dt_rlkind_t)kind, 0);
}

static const struct cg_builtin {
	cg_gen_f *g_fn;
	int g_arg;
} * generator(const dt_node_t *n);

static void builtin_var(dt_cg_t *cg, dt_node_t *n)
{
	const dt_builtin_t *b = n->dn_ident->di_func;
	const struct cg_builtin *g = generator(n);

	if (g != NULL) {
		g->g_fn(cg, n, g->g_arg);
		return;
	}
	if (b->db_flags & DB_F_XLPTR)
		cg_error(cg, n, "%s can only be used as %s->member here", b->db_name, b->db_name);
	cg_error(cg, n, "the built-in variable %s is not supported yet", b->db_name);
}

/* ---------------------------------------------------------------- subprograms */

/* A call of a shared subprogram, which linking appends to the program. */
static void call_sub(dt_cg_t *cg, dt_subr_t sub)
{
	emit_rel(cg, KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), DT_RL_CALL, sub);
	cg->cg_st->st_subrs[sub] = true;
}

/*
 * r0 = strcmp(r1, r2) over strsize bytes at most; r1, r2 point into map
 * values at 8-byte boundaries (every string's place is).  A word at a
 * time: the verifier walks a bounded loop once per iteration and keeps a
 * branch pending for each, so a byte loop over 4096-byte strings exceeded
 * its 8192 pending branches at one call.  Equal words holding a NUL end
 * it, equal; the first word that differs is compared byte by byte.
 */
static void sub_strcmp(dt_cg_t *cg)
{
	int loop = label(cg), diff = label(cg), ret = label(cg), eq = label(cg);

	emit(cg, KS_MOV64_IMM(R3, 0));
	place(cg, loop);
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R3, (int32_t)cg->cg_strsize, 0), eq);
	emit(cg, KS_MOV64_REG(R4, R1));
	emit(cg, KS_ALU64_REG(BPF_ADD, R4, R3));
	emit(cg, KS_LDX_MEM(BPF_DW, R4, R4, 0));
	emit(cg, KS_MOV64_REG(R5, R2));
	emit(cg, KS_ALU64_REG(BPF_ADD, R5, R3));
	emit(cg, KS_LDX_MEM(BPF_DW, R5, R5, 0));
	emit_to(cg, KS_JMP_REG(BPF_JNE, R4, R5, 0), diff);
	/* a zero byte in the word: (w - 0x01..01) & ~w & 0x80..80 is not 0 */
	emit_imm64(cg, R0, 0x0101010101010101ULL);
	emit(cg, KS_MOV64_REG(R5, R4));
	emit(cg, KS_ALU64_REG(BPF_SUB, R5, R0));
	emit(cg, KS_ALU64_IMM(BPF_XOR, R4, -1));
	emit(cg, KS_ALU64_REG(BPF_AND, R5, R4));
	emit_imm64(cg, R0, 0x8080808080808080ULL);
	emit(cg, KS_ALU64_REG(BPF_AND, R5, R0));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R5, 0, 0), eq);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R3, 8));
	jump(cg, loop);
	place(cg, diff); /* the first byte that differs, or a NUL before it (little-endian) */
	for (int k = 0; k < 8; k++) {
		emit(cg, KS_MOV64_REG(R0, R4));
		emit(cg, KS_MOV64_REG(R1, R5));
		if (k > 0) {
			emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 8 * k));
			emit(cg, KS_ALU64_IMM(BPF_RSH, R1, 8 * k));
		}
		emit(cg, KS_ALU64_IMM(BPF_AND, R0, 0xff));
		emit(cg, KS_ALU64_IMM(BPF_AND, R1, 0xff));
		emit_to(cg, KS_JMP_REG(BPF_JNE, R0, R1, 0), ret);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), eq);
	}
	place(cg, ret);
	emit(cg, KS_ALU64_REG(BPF_SUB, R0, R1));
	emit(cg, KS_EXIT());
	place(cg, eq);
	emit(cg, KS_MOV64_IMM(R0, 0));
	emit(cg, KS_EXIT());
}

/*
 * A subprogram written in C (libdtrace/bpf/, turned into instructions by
 * bpf2c at build time): its instructions, its calls and callback
 * addresses as relocations linking resolves, strsize written in (the
 * bodies compare every index with it, a constant the verifier knows).
 */
static void sub_bpf(dt_cg_t *cg, dt_subr_t k)
{
	const dt_bpf_func_t *f = &dt_bpf_funcs[k - DT_SUBR_BPF];

	for (size_t i = 0; i < f->bf_len; i++) {
		struct bpf_insn in = f->bf_insns[i];
		const dt_bpf_rel_t *rl = NULL;

		for (size_t r = 0; r < f->bf_nrels; r++)
			if (f->bf_rels[r].br_kind != DT_BPF_R_NONE && f->bf_rels[r].br_insn == i)
				rl = &f->bf_rels[r];
		if (rl == NULL) {
			emit(cg, in);
		} else if (rl->br_kind == DT_BPF_R_STRSIZE) {
			in.imm = (int32_t)cg->cg_strsize;
			emit(cg, in);
		} else {
			emit_rel(cg, in, rl->br_kind == DT_BPF_R_CALL ? DT_RL_CALL : DT_RL_FUNC,
				 rl->br_to);
		}
	}
}

/* ---------------------------------------------------------------- expressions */

static void cg_call(dt_cg_t *cg, dt_node_t *n);

/* Compare strings: r0 = strcmp(left, right), compared as op wants into 0/1. */
/*
 * r0 = a string operand of a comparison: a D string as it is, a char
 * pointer or array (a probe's char * argument) read as a string from the
 * process's memory into a temporary.
 */
static void str_operand(dt_cg_t *cg, dt_node_t *n)
{
	cg_expr(cg, n);
	if (!is_string(n->dn_type) &&
	    !is_var_chars(n)) /* scratch memory too: stringof(copyin(p, n)) */
		string_from(cg, tmp_string(cg), true, may_scratch(n));
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
	case DT_B_STRTOK: return true;
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
		off = tmp_string(cg);
		emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off), 0), off);
		emit(cg, KS_MOV64_REG(R0, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
		return;
	}
	if (!may_null(n)) {
		str_operand(cg, n);
		return;
	}
	cg->cg_nullnode = n;
	str_operand(cg, n);
	cg->cg_nullnode = NULL;
	off = tmp_string(cg);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), ok);
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off), 0), off);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
	place(cg, ok);
}

/* r0 = a string operand, or 0 for NULL (the constant, or a result that is NULL) */
static void str_or_null(dt_cg_t *cg, dt_node_t *n)
{
	if (!is_string(n->dn_type) && dt_type_is_int(n->dn_type) && (n->dn_flags & DT_NF_CONST) &&
	    n->dn_value == 0) {
		emit(cg, KS_MOV64_IMM(R0, 0));
		return;
	}
	cg->cg_nullnode = may_null(n) ? n : NULL;
	str_operand(cg, n);
	cg->cg_nullnode = NULL;
}

static void str_compare(dt_cg_t *cg, dt_node_t *n)
{
	static const struct {
		dt_tok_t tok;
		int jop;
	} ops[] = { { T_EQEQ, BPF_JEQ }, { T_NE, BPF_JNE },  { T_LT, BPF_JSLT },
		    { T_LE, BPF_JSLE },	 { T_GT, BPF_JSGT }, { T_GE, BPF_JSGE } };
	int yes = label(cg), done = label(cg), jop = BPF_JEQ;

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].tok == n->dn_op)
			jop = ops[i].jop;
	str_nullable(cg, n->dn_left);
	push(cg, n);
	str_nullable(cg, n->dn_right);
	emit(cg, KS_MOV64_REG(R2, R0));
	pop(cg, R1);
	call_sub(cg, DT_SUBR_STRCMP);
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
		  const dt_type_t *t, bool wide)
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
	case T_MOD_EQ:
		ok = label(cg);
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), ok);
		fault(cg, DT_FLT_DIVZERO, -1);
		place(cg, ok);
		{
			int alu = (op == T_SLASH || op == T_DIV_EQ) ? BPF_DIV : BPF_MOD;

			/* signed division: off 1 (BPF ISA v4) */
			emit(cg, KS_INSN(BPF_ALU64 | alu | BPF_X, R1, R0, uns ? 0 : 1, 0));
		}
		break;
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
	cg_value(cg, n->dn_left, true);
	push(cg, n);
	cg_value(cg, n->dn_right, true);
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
static bool is_memory(const dt_node_t *n)
{
	const dt_node_t *l = n->dn_left;

	if (n->dn_kind == DT_N_UNARY && n->dn_op == T_STAR)
		return true;
	if (n->dn_kind == DT_N_MEMBER && n->dn_op == T_ARROW)
		return l->dn_kind != DT_N_SELF && l->dn_kind != DT_N_THIS &&
		       l->dn_kind != DT_N_XLATE &&
		       !(l->dn_kind == DT_N_IDENT && l->dn_ident != NULL &&
			 l->dn_ident->di_kind == DT_IDENT_BUILTIN);
	if (n->dn_kind == DT_N_MEMBER) /* (*p).m, p->a.b */
		return is_memory(l);
	return n->dn_kind == DT_N_INDEX &&
	       !(n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ARRAY) &&
	       !(l->dn_kind == DT_N_IDENT && l->dn_ident != NULL && l->dn_ident->di_func != NULL) &&
	       (dt_type_resolve(l->dn_type)->dtt_kind == DT_TK_PTR ||
		(dt_type_resolve(l->dn_type)->dtt_kind == DT_TK_ARRAY && is_memory(l)));
}

/* r0 = the address of the memory n designates (is_memory(n)). */
static void mem_address(dt_cg_t *cg, dt_node_t *n)
{
	if (n->dn_kind == DT_N_UNARY) {
		cg_expr(cg, n->dn_left);
	} else if (n->dn_kind == DT_N_MEMBER) {
		const dt_type_t *lt = dt_type_resolve(n->dn_left->dn_type);
		const dt_type_t *st = n->dn_op == T_ARROW ? dt_type_resolve(lt->dtt_ref) : lt;
		const dt_member_t *m = st != NULL ? dt_type_member(st, n->dn_name) : NULL;

		if (m == NULL || m->dm_bits != 0)
			cg_error(cg, n, "member %s: bit-fields in memory are not supported yet",
				 n->dn_name);
		if (n->dn_op == T_ARROW)
			cg_expr(cg, n->dn_left);
		else
			mem_address(cg, n->dn_left);
		if (m->dm_off != 0)
			emit(cg, KS_ALU64_IMM(BPF_ADD, R0, (int32_t)m->dm_off));
	} else {
		cg_expr(cg, n->dn_args);
		push(cg, n);
		cg_expr(cg, n->dn_left);
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
		cg_expr(cg, rhs);
		push(cg, n);
		s_rhs = slot_at(cg->cg_sp);
	}
	mem_address(cg, target);
	emit(cg, KS_MOV64_IMM(R9, (int32_t)sz));
	scratch_dest(cg);
	emit(cg, KS_MOV64_REG(R0, R1));
	push(cg, n); /* the checked pointer */
	s_ptr = slot_at(cg->cg_sp);
	push(cg, n); /* a slot for the old value */
	s_old = slot_at(cg->cg_sp);
	emit(cg, KS_LDX_MEM(bpf_size(sz), R0, R0, 0));
	normalize(cg, R0, t);
	new_value(cg, op, t, rhs, s_rhs, s_old);
	emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, s_ptr));
	emit(cg, KS_STX_MEM(bpf_size(sz), R1, R0, 0));
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
	if (op != T_ASSIGN && (target->dn_flags & DT_NF_BITFIELD))
		cg_error(cg, n, "only = can store a bit-field through a pointer yet");
	if (op != T_ASSIGN) {
		memory_update(cg, n, target, op, rhs, post);
		return;
	}
	if (target->dn_flags & DT_NF_BITFIELD) { /* its unit read, changed and written */
		lval_t lv;

		cg_expr(cg, rhs);
		push(cg, n);
		s_val = slot_at(cg->cg_sp);
		lv = mem_bitfield_unit(cg, target);
		emit(cg, KS_MOV64_IMM(R9, (int32_t)tsize(lv.lv_type)));
		scratch_dest(cg);
		emit(cg, KS_MOV64_REG(R3, R1));
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_val));
		bf_insert(cg, &lv, R3, 0, tsize(lv.lv_type));
		emit(cg, KS_STX_MEM(BPF_DW, FP, R0, s_val));
		pop(cg, R0);
		return;
	}
	cg_expr(cg, rhs);
	normalize(cg, R0, t);
	push(cg, n);
	s_val = slot_at(cg->cg_sp);
	mem_address(cg, target);
	emit(cg, KS_MOV64_IMM(R9, (int32_t)sz));
	scratch_dest(cg);
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_val));
	emit(cg, KS_STX_MEM(bpf_size(sz), R1, R0, 0));
	pop(cg, R0);
}

/*
 * r0 = the address of the struct, union or array value n: memory's (*p,
 * p->s), or a variable's bytes (an absent dynamic one reads as zeros, as
 * its members do).
 */
static void blob_src(dt_cg_t *cg, dt_node_t *n)
{
	lval_t lv;
	int base, have = label(cg), done = label(cg);

	if (is_memory(n)) {
		mem_address(cg, n);
		return;
	}
	if (!names_variable(n))
		cg_error(cg, n, "this struct or union value cannot be copied yet");
	lv = lvalue_of(cg, n);
	elem_offset(cg, &lv);
	if (!lv_dynamic(&lv)) {
		uint32_t off = var_place(cg, lv.lv_var, &base);

		elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R0, R1));
		return;
	}
	push(cg, n);
	dyn_key(cg, lv.lv_var, lv.lv_keys);
	emit_map(cg, R1, dvar_map(lv.lv_var));
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
	emit_lookup0(cg, DT_MAP_ZERO); /* absent: its zeros */
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
	if (!is_memory(n))
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	else if (may_scratch(n))
		read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
}

/*
 * s2 = s1 of structs, unions (or arrays): the bytes copied into a
 * variable (a dynamic one made, a full table counting a drop), as
 * illumos copies a by-reference value (DIF_OP_COPYS).  r0 = 0.
 */
static void blob_assign(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_node_t *rhs)
{
	lval_t lv = lvalue_of(cg, target);
	size_t sz = tsize(target->dn_type);
	int drop = label(cg), done = label(cg);
	int16_t disp;

	if (!lv.lv_var->v_sou)
		cg_error(cg, n, "this assignment is not supported yet");
	blob_src(cg, rhs);
	if (is_memory(rhs)) {
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
		count_drop(cg, DT_DROP_DYN);
	}
	place(cg, done);
	emit(cg, KS_MOV64_IMM(R0, 0));
}

/* Assignment, compound assignment, ++ and --; stmt: the value is not used. */
static void assign(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_tok_t op, dt_node_t *rhs,
		   bool post, bool stmt)
{
	lval_t lv;
	const dt_type_t *t = target->dn_type;

	if (is_memory(target)) {
		memory_store(cg, n, target, op, rhs, post);
		return;
	}
	if (op == T_ASSIGN && is_blob(t) && !is_string(rhs->dn_type)) {
		blob_assign(cg, n, target, rhs);
		return;
	}
	lv = lvalue(cg, target);

	/*
	 * A global integer counted by a statement (x++, x += e): one atomic
	 * add, so that no update is lost between CPUs.
	 */
	if (stmt && is_global_int(&lv) && tsize(t) == 8 && lv.lv_nidx == 0 && lv.lv_bits == 0 &&
	    (op == T_INC || op == T_DEC || op == T_ADD_EQ || op == T_SUB_EQ) &&
	    !dt_type_is_ptr(t)) {
		if (rhs != NULL)
			cg_expr(cg, rhs);
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
			str_or_null(cg, rhs);
		else
			cg_expr(cg, rhs);
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
		cg_expr(cg, rhs);
		push(cg, n);
		lv_load(cg, &lv);
		emit(cg, KS_MOV64_REG(R1, R0));
		pop(cg, R0);
		arith(cg, op, t, rhs->dn_type, t, false);
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
	arith(cg, op, t, t, t, false);
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
	uint32_t tmp = tmp_string(cg), off;
	size_t n = tsize(lv->lv_type) + 1;
	int base, done = label(cg), empty = label(cg);

	elem_offset(cg, lv);
	if (!lv_dynamic(lv)) {
		off = var_place(cg, lv->lv_var, &base);
		elem_address(cg, off, base);
		emit(cg, KS_MOV64_REG(R3, R1));
	} else {
		push(cg, lv->lv_node);
		dyn_key(cg, lv->lv_var, lv->lv_keys);
		emit_map(cg, R1, dvar_map(lv->lv_var));
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
		cg_expr(cg, n->dn_left);
	else
		mem_address(cg, n->dn_left);
	if (u0 != 0)
		emit(cg, KS_ALU64_IMM(BPF_ADD, R0, (int32_t)u0));
	return lv;
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
	cg_expr(cg, x->dn_left);
	push(cg, n);
	cg->cg_xarg = x->dn_xlator->dx_argid;
	cg->cg_xslot = slot_at(cg->cg_sp);
	cg_expr(cg, m->dn_right);
	if (!is_string(n->dn_type))
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
static void cg_expr(dt_cg_t *cg, dt_node_t *n)
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
			fault(cg, DT_FLT_BADADDR, R0);
		return;
	}
	cg_expr(cg, b);
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
	    (dt_type_is_int(n->dn_type) || is_float(n->dn_type)) &&
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
		lval_t lv = lvalue_of(cg, n);

		var_chars(cg, &lv);
		return;
	}
	switch (n->dn_kind) {
	case DT_N_INT:
		emit_imm64(cg, R0, wide ? n->dn_value : narrow_const(t, n->dn_value));
		return;
	case DT_N_STRING: string_literal(cg, n->dn_string, n->dn_strlen); return;
	case DT_N_IDENT:
		if (n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_BUILTIN) {
			builtin_var(cg, n);
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
		    n->dn_left->dn_ident->di_kind == DT_IDENT_BUILTIN) {
			cur_info_member(cg, n);
			return;
		}
		if ((n->dn_op == T_ARROW || is_memory(n)) && (n->dn_flags & DT_NF_BITFIELD)) {
			mem_bitfield(cg, n);
			return;
		}
		if (n->dn_op == T_ARROW) { /* p->m: user memory */
			const dt_member_t *m;
			const dt_type_t *st =
			    dt_type_resolve(dt_type_resolve(n->dn_left->dn_type)->dtt_ref);

			m = dt_type_member(st, n->dn_name);
			if (m == NULL || m->dm_bits != 0 ||
			    (!dt_type_is_scalar(m->dm_type) && !is_float(m->dm_type)))
				cg_error(cg, n, "member %s: only scalar members can be read yet",
					 n->dn_name);
			cg_expr(cg, n->dn_left);
			if (m->dm_off != 0)
				emit(cg, KS_ALU64_IMM(BPF_ADD, R0, (int32_t)m->dm_off));
			load_value_at(cg, m->dm_type, n->dn_left);
			return;
		}
		if (is_memory(n)) { /* (*p).m, p->a.b: memory */
			if (!dt_type_is_scalar(t) && !is_float(t))
				cg_error(cg, n,
					 "member %s: a struct or union in memory is used by its "
					 "members only",
					 n->dn_name);
			mem_address(cg, n);
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

			probe_arg(cg, i, n);
			if (is_string(t)) /* a translated char *: the string it points to */
				user_string(cg, tmp_string(cg), true);
			else
				normalize(cg, R0, t);
			return;
		}
		if ((n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_ARRAY) ||
		    (is_elem(n) && names_variable(n->dn_left))) {
			lval_t lv = lvalue(cg, n);

			lv_load(cg, &lv);
			return;
		}
		if (is_elem(n) && is_memory(n)) { /* p->vals[i], p->m[i][j] */
			mem_address(cg, n);
			load_value_at(cg, t, n);
			return;
		}
		if (dt_type_is_ptr(dt_type_resolve(n->dn_left->dn_type))) { /* p[i] */
			cg_expr(cg, n->dn_args);
			push(cg, n);
			cg_expr(cg, n->dn_left);
			pop(cg, R1);
			emit(cg, KS_ALU64_IMM(BPF_MUL, R1, (int32_t)tsize(t)));
			emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
			load_value_at(cg, t, n);
			return;
		}
		if (is_string(n->dn_left->dn_type)) { /* s[i]: a char, 0 past the end */
			str_operand(cg, n->dn_left);
			push(cg, n);
			cg_expr(cg, n->dn_args);
			emit(cg, KS_MOV64_REG(R2, R0));
			pop(cg, R1);
			call_sub(cg, DT_SUBR_CHAR_AT);
			normalize(cg, R0, t);
			return;
		}
		if (n->dn_left->dn_kind == DT_N_IDENT && n->dn_left->dn_ident != NULL &&
		    n->dn_left->dn_ident->di_func != NULL &&
		    n->dn_left->dn_ident->di_func->db_id == DT_B_UREGS) {
			uregs_value(cg, n);
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

			cg_expr(cg, n->dn_left);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), z);
			emit(cg, KS_MOV64_IMM(R0, 0));
			jump(cg, done);
			place(cg, z);
			emit(cg, KS_MOV64_IMM(R0, 1));
			place(cg, done);
			return;
		}
		case T_STAR:
			if (!dt_type_is_scalar(t) && !is_float(t))
				cg_error(cg, n, "only scalars can be read through a pointer yet");
			cg_expr(cg, n->dn_left);
			load_value_at(cg, t, n->dn_left);
			return;
		case T_INC:
		case T_DEC: assign(cg, n, n->dn_left, n->dn_op, NULL, false, false); return;
		case T_AMP:
			/*
			 * &p->m, &*p, &p[i], &(*p).m: the address the operand's memory
			 * is at (illumos' dt_cg_node DT_TOK_ADDROF: its lvalue's
			 * address).  A variable's members have none a program could
			 * read through (the checker refuses & of a variable itself,
			 * D_ADDROF_VAR).
			 */
			if (!is_memory(n->dn_left))
				cg_error(cg, n,
					 "operator & is supported on memory only yet (p->m, *p, "
					 "p[i]), not on a variable's member or element");
			mem_address(cg, n->dn_left);
			return;
		default: cg_error(cg, n, "operator %s is not supported yet", dt_tok_name(n->dn_op));
		}
	case DT_N_POSTFIX: assign(cg, n, n->dn_left, n->dn_op, NULL, true, false); return;
	case DT_N_BINARY:
		if (dt_tok_is_assign(n->dn_op)) {
			assign(cg, n, n->dn_left, n->dn_op, n->dn_right, false, false);
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

			cg_expr(cg, n->dn_left);
			emit_to(cg, KS_JMP_IMM(and? BPF_JEQ : BPF_JNE, R0, 0, 0), out);
			cg_expr(cg, n->dn_right);
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

			cg_expr(cg, n->dn_left);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), a);
			emit(cg, KS_MOV64_IMM(R0, 1));
			place(cg, a);
			push(cg, n);
			cg_expr(cg, n->dn_right);
			emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), b);
			emit(cg, KS_MOV64_IMM(R0, 1));
			place(cg, b);
			pop(cg, R1);
			emit(cg, KS_ALU64_REG(BPF_XOR, R0, R1));
			return;
		}
		case T_COMMA:
			cg_expr(cg, n->dn_left);
			cg_expr(cg, n->dn_right);
			return;
		default:
			cg_value(cg, n->dn_left, true);
			push(cg, n);
			cg_value(cg, n->dn_right, true);
			pop(cg, R1);
			arith(cg, n->dn_op, n->dn_left->dn_type, n->dn_right->dn_type, t, wide);
			emit(cg, KS_MOV64_REG(R0, R1));
			return;
		}
	case DT_N_TERNARY: {
		int no = label(cg), done = label(cg);
		bool nullok = cg->cg_nullnode == n; /* a NULL branch is the whole's */

		cg->cg_nullnode = NULL;
		cg_expr(cg, n->dn_cond);
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
			str_operand(cg, n->dn_left);
			return;
		}
		cg_expr(cg, n->dn_left);
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
		str_operand(cg, n->dn_left);
		return;
	case DT_N_CALL: cg_call(cg, n); return;
	default: cg_error(cg, n, "this expression is not supported in a program yet");
	}
}

/* ---------------------------------------------------------------- subroutines */

/* copyinstr(addr[, n]): n bytes at most, and the NUL */
static void s_copyinstr(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *a = n->dn_args;
	uint32_t off = tmp_string(cg), len = cg->cg_strsize;
	int small;

	(void)arg;
	if (a->dn_next == NULL) {
		cg_expr(cg, a);
		user_string(cg, off, true);
		return;
	}
	cg_expr(cg, a);
	push(cg, n);
	cg_expr(cg, a->dn_next);
	small = label(cg);
	/* illumos: maxlen + 1 bytes if maxlen < strsize (unsigned), else strsize */
	emit(cg, KS_MOV64_REG(R2, R0));
	emit(cg, KS_MOV64_IMM(R0, (int32_t)len));
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R2, (int32_t)len, 0), small);
	emit(cg, KS_MOV64_REG(R0, R2));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R0, 1));
	place(cg, small);
	emit(cg, KS_MOV64_REG(R2, R0));
	pop(cg, R0);
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off), 0), off);
	user_string(cg, off, false);
}

/*
 * strlen(s): the kernel's string copy into a temporary measures it (the
 * bytes it copied, the NUL too): one helper call, where a byte loop cost
 * the verifier a pending branch per byte and per call.
 */
static void s_strlen(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t off = tmp_string(cg);
	int ok = label(cg);

	(void)arg;
	str_operand(cg, n->dn_args);
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	emit(cg, KS_ALU64_IMM(BPF_SUB, R0, 1));
	emit_to(cg, KS_JMP_IMM(BPF_JSGE, R0, 0, 0), ok);
	emit(cg, KS_MOV64_IMM(R0, 0));
	place(cg, ok);
}

/*
 * strjoin(a, b): a, then b from a's NUL: strsize bytes in all.  Two
 * temporaries are reserved so that the verifier sees the second copy, at a
 * variable offset, inside the scratch value.
 */
static void s_strjoin(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *a = n->dn_args;
	uint32_t to = tmp_next(cg), off, len = cg->cg_strsize;
	int ok = label(cg), fits = label(cg);

	(void)arg;
	str_operand(cg, a); /* in order, as DIF evaluates arguments */
	push(cg, n);
	str_operand(cg, a->dn_next);
	push(cg, n);
	off = tmp_string(cg);
	(void)tmp_string(cg);
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, slot_at(cg->cg_sp - 1)));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	emit_to(cg, KS_JMP_IMM(BPF_JSGE, R0, 1, 0), ok); /* bytes copied, the NUL too */
	emit(cg, KS_MOV64_IMM(R0, 1));
	place(cg, ok);
	emit(cg, KS_ALU64_IMM(BPF_SUB, R0, 1)); /* a's length */
	emit_to(cg, KS_JMP_IMM(BPF_JLE, R0, (int32_t)len - 1, 0), fits);
	emit(cg, KS_MOV64_IMM(R0, (int32_t)len - 1));
	place(cg, fits);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
	emit(cg, KS_ALU64_REG(BPF_SUB, R2, R0)); /* 1 to strsize */
	pop(cg, R3);
	cg->cg_sp--; /* a */
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	result_down(cg, to, off);
}

/*
 * A call of a subroutine whose body is C (libdtrace/bpf/dt_strings.c):
 * r1 a new temporary for a string result, then the arguments in order
 * (strings as str_operand leaves them, pointers to strsize bytes; an
 * integer where a string may be, strtok's NULL, as it is), then the nd
 * values of dflt[], then the scratch address state if not 0 (strtok's
 * saved string); r0 the result.  A string result the body gives as
 * NULL (strchr() finding nothing, strtok() at the end) faults as illumos
 * does reading it: an invalid address, 0 (DT_FLT_ILLOP for lltostr()'s
 * base).
 */
static void call_bpf(dt_cg_t *cg, dt_node_t *n, dt_subr_t sub, int nd, const int64_t *dflt,
		     uint32_t state)
{
	bool str = is_string(n->dn_type), nullok = cg->cg_nullnode == n;
	uint32_t to = tmp_next(cg), off;
	int na = 0, reg = str ? R2 : R1, ok = label(cg);

	cg->cg_nullnode = NULL;

	for (dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next, na++) {
		/* strtok(s, ...) of a NULL string goes on with the saved one, as NULL */
		if (sub == DT_SUBR_STRTOK && na == 0 && is_string(a->dn_type))
			str_or_null(cg, a);
		else if (is_string(a->dn_type) || dt_type_is_ptr(dt_type_resolve(a->dn_type)))
			str_operand(cg, a);
		else
			cg_expr(cg, a);
		push(cg, a);
	}
	if (reg + na + nd + (state != 0) - 1 > R5)
		cg_limit(cg, n, "too many arguments for a subroutine body");
	off = str ? tmp_string(cg) : 0; /* above the arguments' */
	for (int i = na - 1; i >= 0; i--)
		pop(cg, reg + i);
	for (int d = 0; d < nd; d++)
		emit_imm64(cg, reg + na + d, (uint64_t)dflt[d]);
	if (state != 0) {
		emit(cg, KS_MOV64_REG(reg + na + nd, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, reg + na + nd, IMM(state)), state);
	}
	if (str) {
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	}
	call_sub(cg, sub);
	if (!str)
		return;
	if (nullok && sub != DT_SUBR_LLTOSTR) { /* NULL stays 0, for str_nullable */
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
		result_down(cg, to, off);
		place(cg, ok);
		return;
	}
	if (sub == DT_SUBR_STRCHR || sub == DT_SUBR_STRRCHR || sub == DT_SUBR_STRSTR ||
	    sub == DT_SUBR_STRTOK || sub == DT_SUBR_LLTOSTR) { /* the bodies that may be NULL */
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), ok);
		fault(cg, sub == DT_SUBR_LLTOSTR ? DT_FLT_ILLOP : DT_FLT_BADADDR, R0);
		place(cg, ok);
	}
	result_down(cg, to, off); /* the verifier knows the temporary from here */
}

/* how many arguments the script gave */
static int nargs(const dt_node_t *n)
{
	int k = 0;

	for (const dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next)
		k++;
	return k;
}

/* substr(s, index [, length]): without a length, strsize (as illumos) */
static void s_substr(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int64_t len = cg->cg_strsize;

	(void)arg;
	call_bpf(cg, n, DT_SUBR_SUBSTR, nargs(n) == 2, &len, 0);
}

/* index(s, sub [, pos]), rindex(): the C body is told whether pos was given */
static void s_index(dt_cg_t *cg, dt_node_t *n, int sub)
{
	static const int64_t nopos[2] = { 0, 0 }, haspos[1] = { 1 };

	if (nargs(n) == 2)
		call_bpf(cg, n, (dt_subr_t)sub, 2, nopos, 0);
	else
		call_bpf(cg, n, (dt_subr_t)sub, 1, haspos, 0);
	normalize(cg, R0, n->dn_type);
}

/* lltostr(v [, base]): base 10 unless given */
static void s_lltostr(dt_cg_t *cg, dt_node_t *n, int arg)
{
	static const int64_t ten = 10;

	(void)arg;
	call_bpf(cg, n, DT_SUBR_LLTOSTR, nargs(n) == 1, &ten, 0);
}

/* the subroutines whose arguments are all given: strstr, strchr, toupper, basename... */
static void s_cbody(dt_cg_t *cg, dt_node_t *n, int sub)
{
	call_bpf(cg, n, (dt_subr_t)sub, 0, NULL, 0);
}

/*
 * strtoll(s [, base]): a base outside 2..36 is an illegal operation (as
 * illumos), checked before the body runs.
 */
static void s_strtoll(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *a = n->dn_args;
	int bad = label(cg), ok = label(cg);

	(void)arg;
	str_operand(cg, a);
	push(cg, a);
	if (a->dn_next != NULL) {
		cg_expr(cg, a->dn_next);
		emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 1, 0), bad);
		emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 36, 0), ok);
		place(cg, bad);
		fault(cg, DT_FLT_ILLOP, -1);
		place(cg, ok);
		emit(cg, KS_MOV64_REG(R2, R0));
	} else {
		emit(cg, KS_MOV64_IMM(R2, 10));
	}
	pop(cg, R1);
	call_sub(cg, DT_SUBR_STRTOLL);
}

/*
 * inet_ntoa(p) (which 0), inet_ntoa6(p) (1), inet_ntop(af, p) (2): the
 * address is read from the traced process by the body (its work area at
 * strsize + 64 in DT_SR_SUBR), or from scratch memory when it points into
 * the alloca region (copyin() or alloca() gave it: illumos dtrace_canload
 * accepts scratch), which gives NULL
 * when it cannot (a fault at the address, kept in r9 across the call) and
 * 1 for an af that is neither IPv4 nor IPv6 (an illegal operation).
 */
static void s_inet(dt_cg_t *cg, dt_node_t *n, int which)
{
	dt_node_t *a = n->dn_args;
	uint32_t off = tmp_string(cg), work = SA(DT_SR_SUBR, cg->cg_strsize + 64);
	int notnull = label(cg), ok = label(cg);

	cg->cg_ps->ps_subrsize = DT_SUBR_REGION(cg->cg_strsize);
	if (which == 2) {
		cg_expr(cg, a);
		push(cg, a);
		a = a->dn_next;
	}
	cg_expr(cg, a);
	emit(cg, KS_MOV64_REG(R9, R0));
	if (which == 2)
		pop(cg, R3);
	else
		emit(cg, KS_MOV64_IMM(R3, which == 0 ? 2 : 10));
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_MOV64_IMM(R4, which == 1));
	if (may_scratch(a)) {
		/* in the alloca region: read as scratch (2 in r4), as read_any does */
		uint32_t d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
		int user = label(cg);

		emit(cg, KS_MOV64_REG(R5, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R5, IMM(d)), d);
		emit_to(cg, KS_JMP_REG(BPF_JLT, R9, R5, 0), user);
		emit(cg, KS_ALU64_IMM(BPF_ADD, R5, (int32_t)scratch_limit(cg)));
		emit_to(cg, KS_JMP_REG(BPF_JGE, R9, R5, 0), user);
		emit(cg, KS_ALU64_IMM(BPF_OR, R4, 2));
		place(cg, user);
	}
	emit(cg, KS_MOV64_REG(R5, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R5, IMM(work)), work);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	call_sub(cg, DT_SUBR_INET);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), notnull);
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, notnull);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 1, 0), ok);
	fault(cg, DT_FLT_ILLOP, -1);
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

/*
 * cleanpath(s): its body carries the output's length and its state in
 * work words of the DT_SR_SUBR region (map memory the verifier does not
 * track: dt_strings.c says why).
 */
static void s_cleanpath(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)arg;
	cg->cg_ps->ps_subrsize = DT_SUBR_REGION(cg->cg_strsize);
	call_bpf(cg, n, DT_SUBR_CLEANPATH, 0, NULL, SA(DT_SR_SUBR, cg->cg_strsize + 40));
}

/*
 * strtok(s, delim): the saved string is in the DT_SR_SUBR region (per CPU;
 * linking clears its "saved" byte when a probe fires, so it lasts the
 * firing, as illumos's), passed
 * as a fourth argument; s is NULL (the constant, 0) to go on with it.
 */
static void s_strtok(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *s = n->dn_args;

	(void)arg;
	if (!is_string(s->dn_type) && !dt_type_is_ptr(dt_type_resolve(s->dn_type)) &&
	    !((s->dn_flags & DT_NF_CONST) && s->dn_value == 0))
		cg_error(cg, s, "strtok( )'s first argument must be a string or NULL");
	cg->cg_ps->ps_subrsize = DT_SUBR_REGION(cg->cg_strsize);
	call_bpf(cg, n, DT_SUBR_STRTOK, 0, NULL, SA(DT_SR_SUBR, 0));
}

/*
 * htons, htonl, htonll and their ntoh twins (bits: 16, 32, 64): the
 * argument converted to the prototype's uintN_t, as C would, then in
 * network order.  BPF_TO_BE is both: it keeps the low bits and swaps
 * them on a little-endian machine only, so the code is right on either;
 * ntoh is the same swap.
 */
static void s_byteorder(dt_cg_t *cg, dt_node_t *n, int bits)
{
	cg_expr(cg, n->dn_args);
	emit(cg, KS_ENDIAN(BPF_TO_BE, R0, bits));
}

/* alloca(size): size bytes of scratch memory, for this clause (illumos: not zeroed) */
static void s_alloca(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)arg;
	cg_expr(cg, n->dn_args);
	allocate(cg);
	alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
}

/*
 * copyin(addr, size): size bytes of the process's memory at addr, copied
 * into scratch memory allocated as alloca() does; r0 = where.  A bad
 * address faults, giving it.
 */
static void s_copyin(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
	int16_t s_addr, s_off;
	int ok = label(cg);

	(void)arg;
	cg_expr(cg, n->dn_args);
	push(cg, n);
	s_addr = slot_at(cg->cg_sp);
	cg_expr(cg, n->dn_args->dn_next);
	allocate(cg);
	push(cg, n);
	s_off = slot_at(cg->cg_sp);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(d)), d);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_addr));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_addr));
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_off));
	alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	cg->cg_sp -= 2;
}

/*
 * copyinto(addr, size, dest) and bcopy(src, dest, size): size bytes into
 * dest, which must be scratch memory this clause allocated (illumos:
 * dtrace_inscratch, else a bad address fault on dest).  copyinto reads
 * the process's memory; bcopy reads scratch memory or the process's.
 */
static void s_copyto(dt_cg_t *cg, dt_node_t *n, int bcopy)
{
	dt_node_t *src = n->dn_args;
	dt_node_t *dest = bcopy ? src->dn_next : src->dn_next->dn_next;
	dt_node_t *size = bcopy ? src->dn_next->dn_next : src->dn_next;
	int16_t s_src, s_size;
	int ok = label(cg);

	cg_expr(cg, src);
	push(cg, n);
	s_src = slot_at(cg->cg_sp);
	cg_expr(cg, size);
	push(cg, n);
	s_size = slot_at(cg->cg_sp);
	cg_expr(cg, dest);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_size));
	scratch_dest(cg);
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_src));
	if (bcopy)
		read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_src));
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	cg->cg_sp -= 2;
}

/* rand(): bpf_get_prandom_u32 as an int (illumos: a per-CPU generator of its own) */
static void s_rand(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	emit(cg, KS_CALL(BPF_FUNC_get_prandom_u32));
	extend(cg, R0, 4, true);
}

#define PROGENY_DEPTH 64 /* the ancestors progenyof() looks at */

/*
 * progenyof(pid): is the current process pid or a descendant of it?  As
 * illumos walks p_parent: the process, then each real_parent up to the
 * idle task (pid 0, its own parent), at most PROGENY_DEPTH of them.
 */
static void s_progenyof(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int loop = label(cg), yes = label(cg), no = label(cg), done = label(cg);
	int16_t s_task, s_count;

	(void)arg;
	cg_expr(cg, n->dn_args);
	if (cg->cg_sp + 2 > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	s_task = slot_at(++cg->cg_sp);
	s_count = slot_at(++cg->cg_sp);
	extend(cg, R0, 4, true); /* a pid_t */
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_CALL(BPF_FUNC_get_current_task));
	emit(cg, KS_STX_MEM(BPF_DW, FP, R0, s_task)); /* the task */
	emit(cg, KS_ST_MEM(BPF_DW, FP, s_count, 0));  /* the count */
	place(cg, loop);
	emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, s_count));
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R1, PROGENY_DEPTH, 0), no);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, 1));
	emit(cg, KS_STX_MEM(BPF_DW, FP, R1, s_count));
	emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_task));
	add_toff(cg, R3, DT_TOFF_TGID);
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
	emit(cg, KS_MOV64_IMM(R2, 4));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), no);
	emit(cg, KS_LDX_MEM(BPF_W, R1, FP, SLOT_TMP));
	extend(cg, R1, 4, true);
	emit_to(cg, KS_JMP_REG(BPF_JEQ, R1, R9, 0), yes);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), no); /* the idle task: the top */
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_task));
	add_toff(cg, R3, DT_TOFF_REAL_PARENT);
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, s_task));
	emit(cg, KS_MOV64_IMM(R2, 8));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), no);
	jump(cg, loop);
	place(cg, yes);
	emit(cg, KS_MOV64_IMM(R0, 1));
	jump(cg, done);
	place(cg, no);
	emit(cg, KS_MOV64_IMM(R0, 0));
	place(cg, done);
	cg->cg_sp -= 2;
}

/* A subroutine's value in r0. */
static void cg_call(dt_cg_t *cg, dt_node_t *n)
{
	const struct cg_builtin *g = generator(n);

	uint32_t mark = cg->cg_tmp;

	if (g == NULL || n->dn_ident->di_func->db_kind != DB_FUNC)
		cg_error(cg, n, "%s( ) is not supported yet", n->dn_name);
	g->g_fn(cg, n, g->g_arg);
	/*
	 * A string result is in the first temporary its generator took, or
	 * was moved there (result_down): the arguments' are free.
	 */
	if (is_string(n->dn_type) && cg->cg_tmp > mark)
		cg->cg_tmp = mark + cg->cg_strsize;
}

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

/*
 * The run's record of an aggregation (an, a DT_N_AGG the checker linked to
 * its identifier), made at its first use; call is where to report errors.
 */
static dt_agg_t *agg_of(dt_cg_t *cg, dt_node_t *an, const dt_node_t *call)
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
		for (int i = 0; same && i < ag->ag_nkeys; i++)
			same = (ag->ag_keys[i].r_kind == DT_RK_STR) == is_string(id->di_keys[i]);
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
	for (int i = 0; i < ag->ag_nkeys; i++) {
		const dt_type_t *t = id->di_keys[i];

		if (is_string(t)) {
			ag->ag_keys[i] = (dt_rec_t){ off, cg->cg_strsize, DT_RK_STR, false, false };
			off += cg->cg_strsize;
		} else if (dt_type_is_scalar(t)) {
			size_t sz = tsize(t);

			ag->ag_keys[i] =
			    (dt_rec_t){ off, (uint32_t)(sz ? sz : 8), DT_RK_INT,
					dt_type_is_int(t) && dt_type_is_signed(t), false };
			off += 8;
		} else {
			cg_error(cg, call, "@%s: keys of this type are not supported yet",
				 an->dn_name);
		}
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
	dt_agg_t *ag = agg_of(cg, an, call);
	int incr_arg = ag->ag_fn == DT_AGG_QUANTIZE	? 1
		       : ag->ag_fn == DT_AGG_LQUANTIZE	? 4
		       : ag->ag_fn == DT_AGG_LLQUANTIZE ? 5
							: -1;
	dt_node_t *x = call->dn_args, *incr = NULL;
	int drop = label(cg), done = label(cg), nk;
	uint32_t k = SA(DT_SR_KEY, 0);

	if (incr_arg > 0)
		for (incr = x; incr != NULL && incr_arg-- > 0;)
			incr = incr->dn_next;
	if (x != NULL) {
		cg_expr(cg, x);
		push(cg, x);
	}
	if (incr != NULL) {
		cg_expr(cg, incr);
		push(cg, incr);
	}
	nk = eval_keys(cg, keys);
	zero_key(cg, ag->ag_keysize);
	store_keys(cg, keys, nk, 0);
	if (ag->ag_keysize > cg->cg_ps->ps_keysize)
		cg->cg_ps->ps_keysize = ag->ag_keysize;
	get_or_make(cg, DT_MAP_AGG(ag->ag_id), k, drop); /* a new entry: zeroed from dt_zero */
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
	count_drop(cg, DT_DROP_AGG);
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
	st->st_recs[st->st_nrecs++] = (dt_rec_t){ off, size, kind, sign, false };
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
			ids[naggs++] = agg_of(cg, a, s)->ag_id;
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
	size_t sz = tsize(n->dn_type);
	bool asint = sz == 1 || sz == 2 || sz == 4 || sz == 8;
	int off, ok = label(cg);

	if (sz == 0 || sz > 4096)
		cg_limit(cg, n, "a traced struct or union must have 1 to 4096 bytes");
	off = add_rec(cg, asint ? DT_RK_INT : DT_RK_BYTES, (uint32_t)sz, false);
	if (asint)
		emit(cg, KS_ST_MEM(BPF_DW, R8, (int16_t)off, 0));
	if (is_memory(n)) { /* *p, p->m, (*p).m, p->a.b: the process's or scratch memory */
		mem_address(cg, n);
		emit(cg, KS_MOV64_REG(R9, R0));
		emit(cg, KS_MOV64_REG(R3, R0));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
		if (may_scratch(n))
			read_any(cg, BPF_FUNC_probe_read_user);
		else
			emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
		fault(cg, DT_FLT_BADADDR, R9);
		place(cg, ok);
		return;
	}
	if (!names_variable(n)) {
		cg_error(cg, n, "values of this type cannot be traced yet");
		return;
	}
	{
		lval_t lv = lvalue_of(cg, n);
		const dt_var_t *v = lv.lv_var;

		if (lv.lv_nidx > 0) /* pts[i], m[i]: the element's offset, kept */
			elem_offset(cg, &lv);
		if (lv.lv_nidx > 0 && (v->v_kind == V_GLOBAL || v->v_kind == V_THIS)) {
			int base;
			uint32_t at = var_place(cg, v, &base);

			elem_address(cg, at, base);
			emit(cg, KS_MOV64_REG(R3, R1));
		} else if (v->v_kind == V_GLOBAL || v->v_kind == V_THIS) {
			int base;
			uint32_t at = var_place(cg, v, &base) + lv.lv_moff;

			emit(cg, KS_MOV64_REG(R3, base));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R3, IMM(at)), at);
		} else {
			int have = label(cg);

			if (lv.lv_nidx > 0)
				push(cg, n);
			dyn_key(cg, v, lv.lv_keys);
			emit_map(cg, R1, dvar_map(v));
			emit(cg, KS_MOV64_REG(R2, R8));
			emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, 0), SA(DT_SR_KEY, 0));
			emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
			emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), have);
			emit_lookup0(cg, DT_MAP_ZERO); /* absent: its zeros */
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

/* Record the value of n (in r0 after this) in the clause's record. */
static void record_value(dt_cg_t *cg, dt_node_t *n)
{
	const dt_type_t *t = n->dn_type;

	/* a struct or union; an array a variable holds (char name[8]), as illumos records its bytes */
	if (dt_type_is_sou(t) || (is_blob(t) && !is_memory(n) && names_variable(n))) {
		record_sou(cg, n);
		return;
	}
	cg_expr(cg, n);
	if (is_string(t)) {
		int off = add_rec(cg, DT_RK_STR, cg->cg_strsize, false);

		copy_string(cg, R8, (uint32_t)off);
	} else if (dt_type_is_scalar(t)) {
		size_t sz = tsize(t);
		int off = add_rec(cg, DT_RK_INT, (uint32_t)(sz ? sz : 8),
				  dt_type_is_int(t) && dt_type_is_signed(t));

		emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off));
	} else if (is_float(t)) {
		/* a float's or double's bits, as illumos records them (its size) */
		int off = add_rec(cg, DT_RK_INT, (uint32_t)tsize(t), false);

		cg->cg_st->st_recs[cg->cg_st->st_nrecs - 1].r_float = true;
		emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)off));
	} else {
		cg_error(cg, n, "values of this type cannot be traced yet");
	}
}

static void a_trace(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs;

	(void)arg;
	record_value(cg, s->dn_args);
	add_act(cg, DT_A_TRACE, NULL, rec0);
	cg->cg_st->st_data = true;
}

/*
 * The conversion character the format gives its argument i (from 0), or
 * 0: widths and precisions given as * take an argument each.
 */
static char conv_of(const char *f, int i)
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
		for (; *f != '\0' && strchr("hlLjzt", *f) != NULL; f++)
			;
		if (*f == '\0')
			return 0;
		if (n++ == i)
			return *f;
		f++;
	}
	return 0;
}

static void a_printf(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs, i = 0;

	(void)arg;
	for (dt_node_t *a = s->dn_args->dn_next; a != NULL; a = a->dn_next, i++) {
		char c = conv_of(s->dn_args->dn_string, i);

		/* %s of a char pointer: the string it points to, as stringof() */
		if ((c == 's' || c == 'S') && !is_string(a->dn_type) &&
		    dt_type_is_ptr(a->dn_type)) {
			int off = add_rec(cg, DT_RK_STR, cg->cg_strsize, false);

			str_operand(cg, a);
			copy_string(cg, R8, (uint32_t)off);
			continue;
		}
		record_value(cg, a);
	}
	add_act(cg, DT_A_PRINTF, s->dn_args->dn_string, rec0);
	cg->cg_st->st_data = true;
}

/* printa, clear, trunc, normalize, denormalize (arg: the dt_akind_t) */
static void a_agg(dt_cg_t *cg, dt_node_t *s, int kind)
{
	agg_action(cg, s, (dt_akind_t)kind);
}

static void a_exit(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int rec0 = cg->cg_st->st_nrecs;

	(void)arg;
	cg_expr(cg, s->dn_args);
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
static void a_tracemem(dt_cg_t *cg, dt_node_t *s, int arg)
{
	dt_node_t *sz = s->dn_args->dn_next;
	int off, ok = label(cg), rec0 = cg->cg_st->st_nrecs;

	(void)arg;
	if (!(sz->dn_flags & DT_NF_CONST) || sz->dn_value == 0 || sz->dn_value > 4096)
		cg_limit(cg, sz, "tracemem( ) needs a constant size from 1 to 4096");
	if (sz->dn_next != NULL) {
		cg_expr(cg, sz->dn_next);
		emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)add_rec(cg, DT_RK_INT, 8, false)));
	}
	cg_expr(cg, s->dn_args);
	off = add_rec(cg, DT_RK_MEM, (uint32_t)sz->dn_value, false);
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz->dn_value));
	if (may_scratch(s->dn_args))
		read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	add_act(cg, DT_A_TRACEMEM, NULL, rec0);
	cg->cg_st->st_data = true;
}

/*
 * print(p), as Oracle's dtrace 2 has it: the pointer, then the bytes of
 * what it points to (at most 4096), printed by its type by the consumer;
 * a bad address faults.
 */
static void a_print(dt_cg_t *cg, dt_node_t *s, int arg)
{
	const dt_type_t *pt = dt_type_resolve(s->dn_args->dn_type);
	const dt_type_t *t = pt != NULL ? pt->dtt_ref : NULL;
	size_t sz = t != NULL ? dt_type_size(t) : 0;
	int rec0 = cg->cg_st->st_nrecs, poff, off, ok = label(cg);

	(void)arg;
	if (sz == 0 || sz > 4096)
		cg_limit(cg, s->dn_args, "print( ) can print 1 to 4096 bytes");
	cg_expr(cg, s->dn_args);
	poff = add_rec(cg, DT_RK_INT, 8, false);
	emit(cg, KS_STX_MEM(BPF_DW, R8, R0, (int16_t)poff));
	off = add_rec(cg, DT_RK_MEM, (uint32_t)sz, false);
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, off));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)sz));
	if (may_scratch(s->dn_args)) /* alloca()'d, as Oracle's tests print */
		read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	fault(cg, DT_FLT_BADADDR, R9);
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
static void a_signal(dt_cg_t *cg, dt_node_t *s, int stop)
{
	int ok = label(cg), bad = label(cg);

	if (stop) {
		emit(cg, KS_MOV64_IMM(R1, 19)); /* SIGSTOP */
		emit(cg, KS_CALL(BPF_FUNC_send_signal));
	} else {
		cg_expr(cg, s->dn_args);
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R0, 1, 0), bad);
		emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 64, 0), ok);
		place(cg, bad);
		fault(cg, DT_FLT_ILLOP, -1);
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
static void a_consumer_fmt(dt_cg_t *cg, dt_node_t *s, int kind)
{
	int rec0 = cg->cg_st->st_nrecs;

	for (dt_node_t *a = s->dn_args->dn_next; a != NULL; a = a->dn_next)
		record_value(cg, a);
	add_act(cg, (dt_akind_t)kind, s->dn_args->dn_string, rec0);
	cg->cg_st->st_data = true;
	cg->cg_st->st_destructive = true;
}

/* ftruncate(): the consumer truncates its output file */
static void a_ftruncate(dt_cg_t *cg, dt_node_t *s, int arg)
{
	(void)s, (void)arg;
	add_act(cg, DT_A_FTRUNCATE, NULL, cg->cg_st->st_nrecs);
	cg->cg_st->st_data = true;
}

/* setopt(name[, value]): the consumer sets the option when it reads the record */
static void a_setopt(dt_cg_t *cg, dt_node_t *s, int arg)
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

/*
 * copyout(), copyoutstr(): writing the process's memory needs
 * bpf_probe_write_user, which a kernel in lockdown (integrity) refuses
 * when the program loads: refused here rather than there.
 */
static void a_copyout(dt_cg_t *cg, dt_node_t *s, int arg)
{
	(void)arg;
	cg_error(cg, s,
		 "%s( ) is not supported yet: writing the process's memory needs "
		 "bpf_probe_write_user, which kernels in lockdown refuse",
		 s->dn_name);
}

/* chill(), breakpoint(), panic(): the kernel's, refused with what they would do */
static void a_kernel_only(dt_cg_t *cg, dt_node_t *s, int arg)
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
static void cg_stmt(dt_cg_t *cg, dt_node_t *s)
{
	uint32_t mark = cg->cg_tmp;

	stmt(cg, s);
	cg->cg_tmp = mark;
}

static void stmt(dt_cg_t *cg, dt_node_t *s)
{
	if (s->dn_kind == DT_N_CALL) {
		const struct cg_builtin *g = generator(s);
		dt_bkind_t kind = s->dn_ident->di_func->db_kind;

		if (g != NULL && kind == DB_ACTION)
			g->g_fn(cg, s, g->g_arg);
		else if (kind == DB_FUNC) /* a subroutine for its effect */
			cg_call(cg, s);
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
		assign(cg, s, s->dn_left, s->dn_op, s->dn_right, false, true);
		return;
	}
	if ((s->dn_kind == DT_N_POSTFIX || s->dn_kind == DT_N_UNARY) &&
	    (s->dn_op == T_INC || s->dn_op == T_DEC)) {
		assign(cg, s, s->dn_left, s->dn_op, NULL, false, true);
		return;
	}
	cg_expr(cg, s);
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

	fault(cg, kind, -1);
	if (!cg->cg_fr->fr_oom && at + 1 < cg->cg_fr->fr_len)
		cg->cg_fr->fr_insns[at + 1].imm = (int32_t)DT_ERR_NOPC; /* dt_frag_fault's er_pc */
}

/* r0 = dt_spec's value (every slot), or a jump to none (r1-r5 clobbered). */
static void spec_slots(dt_cg_t *cg, int none)
{
	emit_lookup0(cg, DT_MAP_SPEC);
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
static void s_speculation(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int loop = label(cg), next = label(cg), fail = label(cg), unavail = label(cg);
	int zero = label(cg), done = label(cg);
	uint64_t nspec = dt_option_get(cg->cg_pcb->pcb_hdl, "nspec", 1);

	uint32_t id = tmp_string(cg);

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
	count_drop(cg, DT_DROP_SPECBUSY);
	jump(cg, zero);
	place(cg, unavail);
	count_drop(cg, DT_DROP_SPECUNAVAIL);
	place(cg, zero);
	emit(cg, KS_MOV64_IMM(R0, 0));
	place(cg, done);
}

/*
 * speculate(id): the clause's record goes to the speculation, its tag in
 * the record's header; a speculation that is not ACTIVE (0, committed,
 * discarded) takes nothing and the record is not sent (cg_clause).
 */
static void a_speculate(dt_cg_t *cg, dt_node_t *s, int arg)
{
	int none = label(cg);

	(void)arg;
	cg_expr(cg, s->dn_args);
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
static void a_commit(dt_cg_t *cg, dt_node_t *s, int kind)
{
	int none = label(cg), rec0 = cg->cg_st->st_nrecs, off;
	int to = kind == DT_A_COMMIT ? DT_SPEC_COMMITTING : DT_SPEC_DISCARDING;

	cg_expr(cg, s->dn_args);
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
	count_drop(cg, DT_DROP_PRINCIPAL);
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

/* Does the clause c (its predicate, its statements) call alloca() or copyin()? */
static bool allocates(const dt_node_t *n)
{
	return any_node(n, is_alloc);
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
	if (allocates(c)) { /* scratch memory lives for the clause */
		uint32_t u = SA(DT_SR_ALLOCA, DT_ALLOCA_USED);

		(void)scratch_use(cg);
		emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(u), 0), u);
	}
	if (c->dn_cond != NULL) {
		cg_expr(cg, c->dn_cond);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), end);
	}
	for (dt_node_t *s = c->dn_args; s != NULL; s = s->dn_next) {
		cg->cg_action++;
		cg_stmt(cg, s);
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
	emit_lookup0(cg, DT_MAP_STATE);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), exit_l);
	emit(cg, KS_MOV64_REG(R7, R0));
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R7, DT_ST_ACTIVITY));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R1, 0, 0), exit_l);
	dt_frag_reloc(cg->cg_fr, DT_RL_ACTIVITY, 0);
	emit_lookup0(cg, DT_MAP_SCRATCH);
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
 * (The verifier has limits of its own, met before this one by code with
 * many branches: it keeps at most 8192 of them pending on one path, about
 * 2,300 aggregation updates.  Those it reports when the program loads.)
 */
#define DT_PROG_MAXINSNS 1000000

typedef struct desc_size {
	const char *ds_name;
	size_t ds_len;
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
	size_t n = 0, k = 0, sum = 0;
	desc_size_t *d;

	for (int i = 0; i < pgp->dp_nstmts; i++)
		for (const dt_node_t *p = pgp->dp_stmts[i].st_clause->dn_pdescs; p != NULL;
		     p = p->dn_next)
			n++;
	if (n == 0 || (d = calloc(n, sizeof(*d))) == NULL)
		return; /* without memory the kernel will say it */
	for (int i = 0; i < pgp->dp_nstmts; i++)
		for (const dt_node_t *p = pgp->dp_stmts[i].st_clause->dn_pdescs; p != NULL;
		     p = p->dn_next)
			d[k++] = (desc_size_t){ p->dn_name != NULL ? p->dn_name : "",
						pgp->dp_stmts[i].st_code.fr_len,
						pgp->dp_stmts[i].st_clause };
	qsort(d, n, sizeof(*d), desc_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(d[i].ds_name, d[i - 1].ds_name) != 0)
			sum = cg->cg_ps->ps_prologue.fr_len;
		sum += d[i].ds_len;
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
		sub_strcmp(&cg);
		for (int k = DT_SUBR_BPF; k < DT_SUBR_N; k++) {
			cg.cg_fr = &ps->ps_subrs[k];
			sub_bpf(&cg, (dt_subr_t)k);
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
	[DT_B_ARG0] = { v_arg, 0 },
	[DT_B_ARG1] = { v_arg, 1 },
	[DT_B_ARG2] = { v_arg, 2 },
	[DT_B_ARG3] = { v_arg, 3 },
	[DT_B_ARG4] = { v_arg, 4 },
	[DT_B_ARG5] = { v_arg, 5 },
	[DT_B_ARG6] = { v_arg, 6 },
	[DT_B_ARG7] = { v_arg, 7 },
	[DT_B_ARG8] = { v_arg, 8 },
	[DT_B_ARG9] = { v_arg, 9 },
	[DT_B_CALLER] = { v_zero, 0 },
	[DT_B_CPU] = { v_helper, BPF_FUNC_get_smp_processor_id },
	[DT_B_CURTHREAD] = { v_helper, BPF_FUNC_get_current_task },
	[DT_B_CWD] = { v_cwd, 0 },
	[DT_B_EPID] = { v_reloc, DT_RL_EPID },
	[DT_B_ERRNO] = { v_errno, 0 },
	[DT_B_EXECNAME] = { v_execname, 0 },
	[DT_B_GID] = { v_upper_lower, 1 },
	[DT_B_ID] = { v_reloc, DT_RL_PRID },
	[DT_B_PID] = { v_upper_lower, 1 },
	[DT_B_PPID] = { v_ppid, 0 },
	[DT_B_PROBEFUNC] = { v_probestr, 2 },
	[DT_B_PROBEMOD] = { v_probestr, 1 },
	[DT_B_PROBENAME] = { v_probestr, 3 },
	[DT_B_PROBEPROV] = { v_probestr, 0 },
	[DT_B_TID] = { v_upper_lower, 0 },
	[DT_B_TIMESTAMP] = { v_helper, BPF_FUNC_ktime_get_ns },
	[DT_B_UCALLER] = { v_ucaller, 0 },
	[DT_B_UID] = { v_upper_lower, 0 },
	[DT_B_VTIMESTAMP] = { v_vtimestamp, 0 },
	[DT_B_WALLTIMESTAMP] = { v_walltimestamp, 0 },
	/* subroutines */
	[DT_B_ALLOCA] = { s_alloca, 0 },
	[DT_B_BCOPY] = { s_copyto, 1 },
	[DT_B_COPYIN] = { s_copyin, 0 },
	[DT_B_COPYINSTR] = { s_copyinstr, 0 },
	[DT_B_COPYINTO] = { s_copyto, 0 },
	[DT_B_HTONL] = { s_byteorder, 32 },
	[DT_B_HTONLL] = { s_byteorder, 64 },
	[DT_B_HTONS] = { s_byteorder, 16 },
	[DT_B_NTOHL] = { s_byteorder, 32 },
	[DT_B_NTOHLL] = { s_byteorder, 64 },
	[DT_B_NTOHS] = { s_byteorder, 16 },
	[DT_B_PROGENYOF] = { s_progenyof, 0 },
	[DT_B_RAND] = { s_rand, 0 },
	[DT_B_SPECULATION] = { s_speculation, 0 },
	[DT_B_STRJOIN] = { s_strjoin, 0 },
	[DT_B_STRLEN] = { s_strlen, 0 },
	[DT_B_SUBSTR] = { s_substr, 0 },
	[DT_B_INDEX] = { s_index, DT_SUBR_INDEX },
	[DT_B_RINDEX] = { s_index, DT_SUBR_RINDEX },
	[DT_B_STRSTR] = { s_cbody, DT_SUBR_STRSTR },
	[DT_B_STRCHR] = { s_cbody, DT_SUBR_STRCHR },
	[DT_B_STRRCHR] = { s_cbody, DT_SUBR_STRRCHR },
	[DT_B_TOUPPER] = { s_cbody, DT_SUBR_TOUPPER },
	[DT_B_TOLOWER] = { s_cbody, DT_SUBR_TOLOWER },
	[DT_B_LLTOSTR] = { s_lltostr, 0 },
	[DT_B_BASENAME] = { s_cbody, DT_SUBR_BASENAME },
	[DT_B_DIRNAME] = { s_cbody, DT_SUBR_DIRNAME },
	[DT_B_CLEANPATH] = { s_cleanpath, 0 },
	[DT_B_STRTOK] = { s_strtok, 0 },
	[DT_B_STRTOLL] = { s_strtoll, 0 },
	[DT_B_INET_NTOA] = { s_inet, 0 },
	[DT_B_INET_NTOA6] = { s_inet, 1 },
	[DT_B_INET_NTOP] = { s_inet, 2 },
	/* actions */
	[DT_B_BREAKPOINT] = { a_kernel_only, 0 },
	[DT_B_CHILL] = { a_kernel_only, 0 },
	[DT_B_CLEAR] = { a_agg, DT_A_CLEAR },
	[DT_B_COMMIT] = { a_commit, DT_A_COMMIT },
	[DT_B_COPYOUT] = { a_copyout, 0 },
	[DT_B_COPYOUTSTR] = { a_copyout, 0 },
	[DT_B_DENORMALIZE] = { a_agg, DT_A_DENORMALIZE },
	[DT_B_DISCARD] = { a_commit, DT_A_DISCARD },
	[DT_B_EXIT] = { a_exit, 0 },
	[DT_B_FREOPEN] = { a_consumer_fmt, DT_A_FREOPEN },
	[DT_B_FTRUNCATE] = { a_ftruncate, 0 },
	[DT_B_NORMALIZE] = { a_agg, DT_A_NORMALIZE },
	[DT_B_PRINT] = { a_print, 0 },
	[DT_B_PRINTA] = { a_agg, DT_A_PRINTA },
	[DT_B_PANIC] = { a_kernel_only, 0 },
	[DT_B_PRINTF] = { a_printf, 0 },
	[DT_B_RAISE] = { a_signal, 0 },
	[DT_B_SETOPT] = { a_setopt, 0 },
	[DT_B_SPECULATE] = { a_speculate, 0 },
	[DT_B_STOP] = { a_signal, 1 },
	[DT_B_SYSTEM] = { a_consumer_fmt, DT_A_SYSTEM },
	[DT_B_TRACE] = { a_trace, 0 },
	[DT_B_TRACEMEM] = { a_tracemem, 0 },
	[DT_B_TRUNC] = { a_agg, DT_A_TRUNC },
};

/* The generator of the built-in n names (a variable or a call), or NULL. */
static const struct cg_builtin *generator(const dt_node_t *n)
{
	const dt_builtin_t *b = n->dn_ident != NULL ? n->dn_ident->di_func : NULL;

	if (b == NULL || b->db_id >= DT_B_NBUILTINS || generators[b->db_id].g_fn == NULL)
		return NULL;
	return &generators[b->db_id];
}
