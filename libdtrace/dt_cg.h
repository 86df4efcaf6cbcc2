/*
 * dt_cg.h -- what the code generator's files share (internal to dt_cg*.c):
 * the generator's state, the registers' roles, scratch addresses, the
 * small emitters (inline), and the functions one file calls in another.
 *
 *   dt_cg.c       values, variables, lvalues, expressions, clauses, and the
 *                 table of generators by built-in id
 *   dt_cg_subr.c  built-in variables, subroutines, shared subprograms
 *   dt_cg_act.c   aggregations, actions, speculations
 */
#ifndef DT_CG_H
#define DT_CG_H

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

#define SLOT_TMP   DT_SLOT_TMP /* an 8-byte temporary (helper output) */
#define SLOT_FIRST 2	       /* spill slot n at r10 - 8n */
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

static inline _Noreturn void cg_verror(dt_cg_t *cg, const dt_node_t *n, const char *tag,
				       const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static inline _Noreturn void cg_verror(dt_cg_t *cg, const dt_node_t *n, const char *tag,
				       const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	dt_cerror(cg->cg_pcb, n != NULL ? &n->dn_loc : cg->cg_loc, tag, "%s", msg);
}

static inline _Noreturn void cg_verror_tag(dt_cg_t *cg, const dt_node_t *n, const char *tag,
					   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline _Noreturn void cg_verror_tag(dt_cg_t *cg, const dt_node_t *n, const char *tag,
					   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_verror(cg, n, tag, fmt, ap);
}

/* What code generation cannot do yet: D_UNSUPPORTED at the construct. */
static inline _Noreturn void cg_error(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline _Noreturn void cg_error(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_verror(cg, n, "D_UNSUPPORTED", fmt, ap);
}

/* What BPF cannot hold (the stack, a jump, a map value): D_CG_LIMIT. */
static inline _Noreturn void cg_limit(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline _Noreturn void cg_limit(dt_cg_t *cg, const dt_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_verror(cg, n, "D_CG_LIMIT", fmt, ap);
}

static inline void emit(dt_cg_t *cg, struct bpf_insn i)
{
	dt_frag_emit(cg->cg_fr, i);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

/* i, whose off (a load or store) or imm (an ALU operation) holds scratch address a's offset */
static inline void emit_sa(dt_cg_t *cg, struct bpf_insn i, uint32_t a)
{
	emit(cg, i);
	if (SA_RG(a) != DT_SR_REC)
		dt_frag_reloc(cg->cg_fr, DT_RL_SCR, SA_RG(a));
}

/* i with a relocation */
static inline void emit_rel(dt_cg_t *cg, struct bpf_insn i, dt_rlkind_t kind, uint32_t arg)
{
	emit(cg, i);
	dt_frag_reloc(cg->cg_fr, kind, arg);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

static inline void emit_imm64(dt_cg_t *cg, int reg, uint64_t v)
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
static inline void emit_map(dt_cg_t *cg, int reg, uint32_t map)
{
	struct bpf_insn i[2] = { KS_LD_MAP_FD(reg, 0) };

	emit_rel(cg, i[0], DT_RL_MAP, map);
	emit(cg, i[1]);
}

static inline void emit_pseudo(dt_cg_t *cg, const dt_pseudo_t *px)
{
	dt_frag_pseudo(cg->cg_fr, px);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

static inline size_t here(dt_cg_t *cg)
{
	return cg->cg_fr->fr_len;
}

/* ---------------------------------------------------------------- labels */

static inline int label(dt_cg_t *cg)
{
	int l = dt_frag_label(cg->cg_fr);

	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
	return l;
}

static inline void place(dt_cg_t *cg, int l)
{
	dt_frag_place(cg->cg_fr, l);
}

/* A jump (or call) whose offset is fixed when the program is linked. */
static inline void emit_to(dt_cg_t *cg, struct bpf_insn i, int l)
{
	dt_frag_emit_to(cg->cg_fr, i, l);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

static inline void jump(dt_cg_t *cg, int l)
{
	emit_to(cg, KS_JA(0), l);
}

/* ---------------------------------------------------------------- spills */

static inline void push(dt_cg_t *cg, const dt_node_t *n)
{
	if (++cg->cg_sp > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	emit(cg, KS_STX_MEM(BPF_DW, FP, R0, (int16_t)(-8 * (cg->cg_sp + SLOT_FIRST - 1))));
}

static inline void pop(dt_cg_t *cg, int reg)
{
	emit(cg, KS_LDX_MEM(BPF_DW, reg, FP, (int16_t)(-8 * (cg->cg_sp + SLOT_FIRST - 1))));
	cg->cg_sp--;
}

/* ---------------------------------------------------------------- types */

static inline size_t tsize(const dt_type_t *t)
{
	return t != NULL ? dt_type_size(t) : 8;
}

static inline bool is_string(const dt_type_t *t)
{
	return t != NULL && dt_type_is_string(t);
}

/*
 * The bytes a value of type t takes in a variable: a string strsize (the
 * option's, as illumos sizes its string type by it), an array of them so
 * many times that.
 */
static inline size_t vsize(const dt_cg_t *cg, const dt_type_t *t)
{
	const dt_type_t *r = t != NULL ? dt_type_resolve(t) : NULL;

	if (r != NULL && r->dtt_kind == DT_TK_STRING)
		return cg->cg_strsize;
	if (r != NULL && r->dtt_kind == DT_TK_ARRAY)
		return r->dtt_nelems * vsize(cg, r->dtt_ref);
	return tsize(t);
}

/* Bring reg to type t: sign- or zero-extend from its size (_Bool: 0 or 1). */
static inline void normalize(dt_cg_t *cg, int reg, const dt_type_t *t)
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

static inline void extend(dt_cg_t *cg, int reg, size_t sz, bool sign)
{
	dt_frag_extend(cg->cg_fr, reg, sz, sign);
}

static inline int bpf_size(size_t sz)
{
	return sz == 1 ? BPF_B : sz == 2 ? BPF_H : sz == 4 ? BPF_W : BPF_DW;
}

/* After the usual arithmetic conversions, is a comparison of a and b unsigned? */
static inline bool cmp_unsigned(const dt_type_t *a, const dt_type_t *b)
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

/*
 * The generators of built-ins, by id (the table at the end of dt_cg_clause.c):
 * a variable's and a subroutine's leave the value in r0, an action's
 * records what the consumer acts on.  arg is the row's g_arg.
 */
typedef void cg_gen_f(dt_cg_t *cg, dt_node_t *n, int arg);

/* a built-in's generator: its function and the argument it passes */
struct cg_builtin {
	cg_gen_f *g_fn;
	int g_arg;
};

void dt_cg_fault(dt_cg_t *cg, int kind, int addrreg);
void dt_cg_str_operand(dt_cg_t *cg, dt_node_t *n);
bool dt_cg_is_float(const dt_type_t *t);
uint32_t dt_cg_scratch_limit(const dt_cg_t *cg);
uint32_t dt_cg_scratch_use(dt_cg_t *cg);
void dt_cg_alloca_base(dt_cg_t *cg, int reg);
void dt_cg_str_or_null(dt_cg_t *cg, dt_node_t *n);
void dt_cg_allocate(dt_cg_t *cg);
void dt_cg_scratch_dest(dt_cg_t *cg);
void dt_cg_read_any(dt_cg_t *cg, int helper);
bool dt_cg_may_scratch(const dt_node_t *n);
bool dt_cg_xlate_whole(dt_cg_t *cg, dt_node_t *n);
bool dt_cg_var_blob(dt_cg_t *cg, dt_node_t *n, size_t *size);
bool dt_cg_is_memory(const dt_node_t *n);
bool dt_cg_is_blob(const dt_type_t *t);
bool dt_cg_is_ldouble(const dt_type_t *t);
void dt_cg_mem_address(dt_cg_t *cg, dt_node_t *n);
uint32_t dt_cg_tmp_string(dt_cg_t *cg);
uint32_t dt_cg_tmp_next(const dt_cg_t *cg);
void dt_cg_errno_prog(dt_frag_t *fr);
void dt_cg_result_down(dt_cg_t *cg, uint32_t to, uint32_t off);
void dt_cg_emit_lookup0(dt_cg_t *cg, uint32_t map);
void dt_cg_count_drop(dt_cg_t *cg, int kind);
void dt_cg_copy_string(dt_cg_t *cg, int base, uint32_t off);
/*
 * uaddr(), ufunc(), usym(), umod(), or the kernel's sym(), func(), mod(), of
 * an address: its built-in's id (DT_B_*), else -1.
 */
int dt_cg_usym_kind(const dt_node_t *n);
void dt_cg_sym_pid(dt_cg_t *cg, int kind);
/* stack(), ustack() or jstack(): its built-in's id, else -1. */
int dt_cg_stack_kind(const dt_node_t *n);
/* Its record's size and frames, from its arguments or the *stackframes options. */
uint32_t dt_cg_stack_size(dt_cg_t *cg, const dt_node_t *n, uint32_t *nframes);
/* Its record (dt_program.h DT_RK_STACK) at the scratch address sa, zeroed strings included. */
void dt_cg_stack_into(dt_cg_t *cg, const dt_node_t *n, uint32_t sa);
uint32_t dt_cg_tmp_bytes(dt_cg_t *cg, uint32_t n);
int dt_cg_eval_keys(dt_cg_t *cg, dt_node_t *keys);
void dt_cg_zero_key(dt_cg_t *cg, uint32_t size);
uint32_t dt_cg_store_keys(dt_cg_t *cg, dt_node_t *keys, int nk, uint32_t off);
void dt_cg_assign(dt_cg_t *cg, dt_node_t *n, dt_node_t *target, dt_tok_t op, dt_node_t *rhs,
		  bool post, bool is_stmt);
const struct cg_builtin *dt_cg_generator(const dt_node_t *n);
bool dt_cg_allocates(const dt_node_t *n); /* calls alloca() or copyin() */
void dt_cg_dyn_key(dt_cg_t *cg, const dt_var_t *v, dt_node_t *keys);
bool dt_cg_names_variable(const dt_node_t *n);
lval_t dt_cg_lvalue_of(dt_cg_t *cg, dt_node_t *n);
void dt_cg_expr(dt_cg_t *cg, dt_node_t *n);
void dt_cg_elem_offset(dt_cg_t *cg, const lval_t *lv);
void dt_cg_elem_address(dt_cg_t *cg, uint32_t off, int base);
uint32_t dt_cg_var_place(const dt_cg_t *cg, const dt_var_t *v, int *base);
uint32_t dt_cg_dvar_map(const dt_var_t *v);
void dt_cg_get_or_make(dt_cg_t *cg, uint32_t map, uint32_t key, int drop);
int16_t dt_cg_slot_at(int sp);
void dt_cg_a_trace(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_printf(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_agg(dt_cg_t *cg, dt_node_t *s, int kind);
void dt_cg_a_exit(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_tracemem(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_print(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_signal(dt_cg_t *cg, dt_node_t *s, int stop);
void dt_cg_a_consumer_fmt(dt_cg_t *cg, dt_node_t *s, int kind);
void dt_cg_a_ftruncate(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_setopt(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_copyout(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_kernel_only(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_stmt(dt_cg_t *cg, dt_node_t *s);
void dt_cg_s_speculation(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_a_speculate(dt_cg_t *cg, dt_node_t *s, int arg);
void dt_cg_a_commit(dt_cg_t *cg, dt_node_t *s, int kind);
void dt_cg_string_literal(dt_cg_t *cg, const char *s, size_t len);
void dt_cg_s_copyinstr(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_string_from(dt_cg_t *cg, uint32_t off, bool set_len, bool any);
void dt_cg_user_string(dt_cg_t *cg, uint32_t off, bool set_len);
void dt_cg_s_strlen(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_probe_arg(dt_cg_t *cg, int i, const dt_node_t *n);
void dt_cg_s_strjoin(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_substr(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_index(dt_cg_t *cg, dt_node_t *n, int sub);
void dt_cg_cur_info_member(dt_cg_t *cg, dt_node_t *n);
void dt_cg_s_lltostr(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_cbody(dt_cg_t *cg, dt_node_t *n, int sub);
void dt_cg_s_json(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_strtoll(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_inet(dt_cg_t *cg, dt_node_t *n, int which);
void dt_cg_v_cwd(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_psargs(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_zonename(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_cleanpath(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_strtok(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_byteorder(dt_cg_t *cg, dt_node_t *n, int bits);
void dt_cg_s_devnum(dt_cg_t *cg, dt_node_t *n, int major);
void dt_cg_s_alloca(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_copyin(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_copyto(dt_cg_t *cg, dt_node_t *n, int bcopy);
void dt_cg_uregs_value(dt_cg_t *cg, dt_node_t *n);
void dt_cg_s_rand(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_s_progenyof(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_arg(dt_cg_t *cg, dt_node_t *n, int i);
void dt_cg_v_upper_lower(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_ppid(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_vtimestamp(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_errno(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_call(dt_cg_t *cg, dt_node_t *n);
void dt_cg_v_helper(dt_cg_t *cg, dt_node_t *n, int helper);
void dt_cg_v_walltimestamp(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_execname(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_probestr(dt_cg_t *cg, dt_node_t *n, int which);
void dt_cg_v_zero(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_ucaller(dt_cg_t *cg, dt_node_t *n, int arg);
void dt_cg_v_stackdepth(dt_cg_t *cg, dt_node_t *n, int user);
void dt_cg_v_reloc(dt_cg_t *cg, dt_node_t *n, int kind);
void dt_cg_builtin_var(dt_cg_t *cg, dt_node_t *n);
void dt_cg_call_sub(dt_cg_t *cg, dt_subr_t sub);
void dt_cg_sub_strcmp(dt_cg_t *cg);
void dt_cg_sub_drop(dt_cg_t *cg);
void dt_cg_sub_bpf(dt_cg_t *cg, dt_subr_t k);

#endif /* DT_CG_H */
