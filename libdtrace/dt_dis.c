/*
 * dt_dis.c -- the BPF disassembler behind dtrace -S (dt_dis.h shows the
 * syntax).  Each instruction is checked against the encodings the kernel
 * accepts before it is named: one that is not valid prints as its raw
 * fields instead of as something it is not, which is what someone reading
 * a code generator's output needs to see.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "dt_dis.h"

/* encodings newer than the 6.1 UAPI headers Debian 12 builds with */
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80 /* LDX: sign-extending load (6.6) */
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0 /* JMP: conditional pseudo jump (6.9)... */
#endif
#define MAY_GOTO 0 /* ...whose src_reg 0 is may_goto */
#ifndef BPF_ADDR_SPACE_CAST
#define BPF_ADDR_SPACE_CAST 1 /* ALU64 MOV X: off of an arena pointer cast (6.9) */
#endif

/* Indexed by id: the header's list, whichever of its two forms it has. */
#define HELPER(name) [BPF_FUNC_##name] = #name
static const char *const helpers[] = { __BPF_FUNC_MAPPER(HELPER) };
#undef HELPER

const char *dt_dis_helper(int id)
{
	if (id <= BPF_FUNC_unspec || (size_t)id >= sizeof(helpers) / sizeof(helpers[0]))
		return NULL;
	return helpers[id];
}

static const char *const alu_ops[16] = {
	[BPF_ADD >> 4] = "+=",	[BPF_SUB >> 4] = "-=",	[BPF_MUL >> 4] = "*=",
	[BPF_DIV >> 4] = "/=",	[BPF_OR >> 4] = "|=",	[BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=", [BPF_RSH >> 4] = ">>=", [BPF_MOD >> 4] = "%=",
	[BPF_XOR >> 4] = "^=",	[BPF_MOV >> 4] = "=",	[BPF_ARSH >> 4] = "s>>=",
};

static const char *const atomic_ops[16] = {
	[BPF_ADD >> 4] = "add",
	[BPF_AND >> 4] = "and",
	[BPF_OR >> 4] = "or",
	[BPF_XOR >> 4] = "xor",
};

/* conditional jumps only: JA, CALL, EXIT and JCOND have forms of their own */
static const char *const jmp_ops[16] = {
	[BPF_JEQ >> 4] = "==",	 [BPF_JGT >> 4] = ">",	  [BPF_JGE >> 4] = ">=",
	[BPF_JSET >> 4] = "&",	 [BPF_JNE >> 4] = "!=",	  [BPF_JSGT >> 4] = "s>",
	[BPF_JSGE >> 4] = "s>=", [BPF_JLT >> 4] = "<",	  [BPF_JLE >> 4] = "<=",
	[BPF_JSLT >> 4] = "s<",	 [BPF_JSLE >> 4] = "s<=",
};

/* by BPF_SIZE() >> 3 */
static const char *const sizes[4] = { "u32", "u16", "u8", "u64" };
static const char *const ssizes[4] = { "s32", "s16", "s8", NULL };

/* One instruction's text, and where it jumps to if it does. */
typedef struct text {
	char t_buf[128]; /* the longest valid form is about 60 bytes */
	size_t t_len;
	bool t_jumps;
	long long t_rel; /* the target, relative to the next instruction */
} text_t;

__attribute__((format(printf, 2, 3))) static void put(text_t *t, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(t->t_buf + t->t_len, sizeof(t->t_buf) - t->t_len, fmt, ap);
	va_end(ap);
	if (len > 0)
		t->t_len += (size_t)len < sizeof(t->t_buf) - t->t_len
				? (size_t)len
				: sizeof(t->t_buf) - t->t_len - 1;
}

static void jumps(text_t *t, long long rel)
{
	t->t_jumps = true;
	t->t_rel = rel;
}

static bool reg_ok(unsigned r)
{
	return r < MAX_BPF_REG;
}

static bool alu(text_t *t, const struct bpf_insn *in)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64, x = BPF_SRC(in->code) == BPF_X;
	unsigned op = BPF_OP(in->code);
	char r = is64 ? 'r' : 'w';
	int d = in->dst_reg, s = in->src_reg;

	if (!reg_ok(d) || !reg_ok(s))
		return false;
	if (op == BPF_NEG) {
		if (x || s != 0 || in->off != 0 || in->imm != 0)
			return false;
		put(t, "%c%d = -%c%d", r, d, r, d);
		return true;
	}
	if (op == BPF_END) {
		/* the source bit is the byte order, K (0) being little-endian */
		if (s != 0 || in->off != 0 || (in->imm != 16 && in->imm != 32 && in->imm != 64))
			return false;
		if (is64 && x)
			return false;
		if (is64)
			put(t, "r%d = bswap%d r%d", d, in->imm, d);
		else
			put(t, "r%d = %s%d r%d", d, x ? "be" : "le", in->imm, d);
		return true;
	}
	if (alu_ops[op >> 4] == NULL)
		return false;
	if (is64 && x && op == BPF_MOV && in->off == BPF_ADDR_SPACE_CAST) {
		put(t, "r%d = addr_space_cast(r%d, %u, %u)", d, s, (uint32_t)in->imm >> 16,
		    (uint32_t)in->imm & 0xffff);
		return true;
	}
	if (x ? in->imm != 0 : s != 0)
		return false;
	if (in->off == 0) {
		if (x)
			put(t, "%c%d %s %c%d", r, d, alu_ops[op >> 4], r, s);
		else
			put(t, "%c%d %s %d", r, d, alu_ops[op >> 4], in->imm);
	} else if (in->off == 1 && (op == BPF_DIV || op == BPF_MOD)) {
		if (x)
			put(t, "%c%d s%s %c%d", r, d, alu_ops[op >> 4], r, s);
		else
			put(t, "%c%d s%s %d", r, d, alu_ops[op >> 4], in->imm);
	} else if (x && op == BPF_MOV &&
		   (in->off == 8 || in->off == 16 || (is64 && in->off == 32))) {
		put(t, "%c%d = (s%d)%c%d", r, d, in->off, r, s);
	} else {
		return false;
	}
	return true;
}

static bool jmp(text_t *t, const struct bpf_insn *in)
{
	bool is32 = BPF_CLASS(in->code) == BPF_JMP32, x = BPF_SRC(in->code) == BPF_X;
	unsigned op = BPF_OP(in->code);
	char r = is32 ? 'w' : 'r';
	int d = in->dst_reg, s = in->src_reg;
	const char *name;

	if (!reg_ok(d) || !reg_ok(s))
		return false;
	switch (op) {
	case BPF_JA:
		if (x || d != 0 || s != 0 || (is32 ? in->off : in->imm) != 0)
			return false;
		/* JMP32's is the long form: the offset in imm */
		if (is32)
			put(t, "gotol pc%+d", in->imm);
		else
			put(t, "goto pc%+d", in->off);
		jumps(t, is32 ? in->imm : in->off);
		return true;
	case BPF_CALL:
		if (is32 || x || d != 0 || in->off != 0)
			return false;
		if (s == 0) {
			if ((name = dt_dis_helper(in->imm)) != NULL)
				put(t, "call %s#%d", name, in->imm);
			else
				put(t, "call #%d", in->imm);
		} else if (s == BPF_PSEUDO_CALL) {
			put(t, "call pc%+d", in->imm);
			jumps(t, in->imm);
		} else if (s == BPF_PSEUDO_KFUNC_CALL) {
			put(t, "call kfunc#%d", in->imm);
		} else {
			return false;
		}
		return true;
	case BPF_EXIT:
		if (is32 || x || d != 0 || s != 0 || in->off != 0 || in->imm != 0)
			return false;
		put(t, "exit");
		return true;
	case BPF_JCOND:
		if (is32 || x || d != 0 || s != MAY_GOTO || in->imm != 0)
			return false;
		put(t, "may_goto pc%+d", in->off);
		jumps(t, in->off);
		return true;
	}
	if (jmp_ops[op >> 4] == NULL || (x ? in->imm != 0 : s != 0))
		return false;
	if (x)
		put(t, "if %c%d %s %c%d goto pc%+d", r, d, jmp_ops[op >> 4], r, s, in->off);
	else
		put(t, "if %c%d %s 0x%x goto pc%+d", r, d, jmp_ops[op >> 4], (uint32_t)in->imm,
		    in->off);
	jumps(t, in->off);
	return true;
}

/* BPF_LD: how many instructions it takes (2 for a 64-bit load), 0 if invalid. */
static size_t ld(text_t *t, const struct bpf_insn *in, size_t left)
{
	unsigned mode = BPF_MODE(in->code), size = BPF_SIZE(in->code);
	int d = in->dst_reg, s = in->src_reg;
	const struct bpf_insn *hi = in + 1;
	uint64_t v;

	if ((mode == BPF_ABS || mode == BPF_IND) && size != BPF_DW) {
		/* the packet loads of classic BPF: the result is in r0 */
		if (d != 0 || in->off != 0 || !reg_ok(s) || (mode == BPF_ABS && s != 0))
			return 0;
		if (mode == BPF_ABS)
			put(t, "r0 = *(%s *)skb[%d]", sizes[size >> 3], in->imm);
		else
			put(t, "r0 = *(%s *)skb[r%d + %d]", sizes[size >> 3], s, in->imm);
		return 1;
	}
	if (mode != BPF_IMM || size != BPF_DW || left < 2 || !reg_ok(d) || in->off != 0)
		return 0;
	if (hi->code != 0 || hi->dst_reg != 0 || hi->src_reg != 0 || hi->off != 0)
		return 0;
	switch (s) {
	case 0:
		v = (uint64_t)(uint32_t)hi->imm << 32 | (uint32_t)in->imm;
		put(t, "r%d = 0x%" PRIx64 " ll", d, v);
		break;
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_IDX:
		if (hi->imm != 0)
			return 0;
		put(t, "r%d = %s %d ll", d, s == BPF_PSEUDO_MAP_FD ? "map_fd" : "map_idx", in->imm);
		break;
	case BPF_PSEUDO_MAP_VALUE:
	case BPF_PSEUDO_MAP_IDX_VALUE:
		/* the second half's imm is the offset into the value */
		put(t, "r%d = %s %d +%u ll", d,
		    s == BPF_PSEUDO_MAP_VALUE ? "map_value" : "map_idx_value", in->imm,
		    (uint32_t)hi->imm);
		break;
	case BPF_PSEUDO_BTF_ID:
		/* the second half's imm is the fd of a module's BTF, or 0: vmlinux's */
		if (hi->imm != 0)
			put(t, "r%d = btf_id %d fd %d ll", d, in->imm, hi->imm);
		else
			put(t, "r%d = btf_id %d ll", d, in->imm);
		break;
	case BPF_PSEUDO_FUNC:
		if (hi->imm != 0)
			return 0;
		put(t, "r%d = func pc%+d ll", d, in->imm);
		jumps(t, in->imm);
		break;
	default: return 0;
	}
	return 2;
}

static bool ldx(text_t *t, const struct bpf_insn *in)
{
	unsigned mode = BPF_MODE(in->code), size = BPF_SIZE(in->code) >> 3;
	const char *type = mode == BPF_MEM ? sizes[size] : mode == BPF_MEMSX ? ssizes[size] : NULL;

	if (type == NULL || in->imm != 0 || !reg_ok(in->dst_reg) || !reg_ok(in->src_reg))
		return false;
	put(t, "r%d = *(%s *)(r%d %+d)", in->dst_reg, type, in->src_reg, in->off);
	return true;
}

static bool st(text_t *t, const struct bpf_insn *in)
{
	if (BPF_MODE(in->code) != BPF_MEM || in->src_reg != 0 || !reg_ok(in->dst_reg))
		return false;
	put(t, "*(%s *)(r%d %+d) = %d", sizes[BPF_SIZE(in->code) >> 3], in->dst_reg, in->off,
	    in->imm);
	return true;
}

static bool stx(text_t *t, const struct bpf_insn *in)
{
	unsigned size = BPF_SIZE(in->code);
	const char *type = sizes[size >> 3], *bits = size == BPF_DW ? "64" : "";
	int d = in->dst_reg, s = in->src_reg, op = in->imm & ~BPF_FETCH;

	if (!reg_ok(d) || !reg_ok(s))
		return false;
	if (BPF_MODE(in->code) == BPF_MEM) {
		if (in->imm != 0)
			return false;
		put(t, "*(%s *)(r%d %+d) = r%d", type, d, in->off, s);
		return true;
	}
	if (BPF_MODE(in->code) != BPF_ATOMIC || (size != BPF_W && size != BPF_DW))
		return false;
	if (in->imm == BPF_XCHG) {
		put(t, "r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)", s, bits, type, d, in->off, s);
	} else if (in->imm == BPF_CMPXCHG) {
		put(t, "r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)", bits, type, d, in->off,
		    s);
	} else if ((op & ~0xf0) != 0 || atomic_ops[op >> 4] == NULL) {
		return false;
	} else if (in->imm & BPF_FETCH) {
		put(t, "r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)", s, bits,
		    atomic_ops[op >> 4], type, d, in->off, s);
	} else {
		put(t, "lock *(%s *)(r%d %+d) %s r%d", type, d, in->off, alu_ops[op >> 4], s);
	}
	return true;
}

/* Instruction in's text: how many instructions it takes, 0 if it is not valid. */
static size_t decode(text_t *t, const struct bpf_insn *in, size_t left)
{
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64: return alu(t, in);
	case BPF_JMP:
	case BPF_JMP32: return jmp(t, in);
	case BPF_LD: return ld(t, in, left);
	case BPF_LDX: return ldx(t, in);
	case BPF_ST: return st(t, in);
	case BPF_STX: return stx(t, in);
	}
	return 0;
}

/* comments start in this column of an instruction's text */
#define COMMENT_COL 28

void dt_dis(FILE *fp, const char *indent, const struct bpf_insn *insns, size_t n,
	    dt_dis_note_f *note, void *arg)
{
	int width = 4;
	size_t i, len;

	for (i = n > 0 ? n - 1 : 0; i > 9999; i /= 10)
		width++;
	for (i = 0; i < n; i += len) {
		const struct bpf_insn *in = &insns[i];
		text_t t = { .t_len = 0 };
		const char *what;

		what = note != NULL ? note(i, arg) : NULL;
		if (what != NULL && what[0] == '=') { /* the caller's own text for it */
			fprintf(fp, "%s%*zu: %s\n", indent != NULL ? indent : "", width, i,
				what + 1);
			len = 1;
			continue;
		}
		if ((len = decode(&t, in, n - i)) == 0) {
			t = (text_t){ .t_len = 0 };
			put(&t, ".insn 0x%02x dst=%d src=%d off=%d imm=%d", in->code, in->dst_reg,
			    in->src_reg, in->off, in->imm);
			len = 1;
		}
		fprintf(fp, "%s%*zu: %s", indent != NULL ? indent : "", width, i, t.t_buf);
		if (t.t_jumps || what != NULL)
			fprintf(fp, "%*s;",
				t.t_len < COMMENT_COL ? (int)(COMMENT_COL - t.t_len) : 1, "");
		if (t.t_jumps) {
			long long to = (long long)i + 1 + t.t_rel;

			fprintf(fp, " -> %lld%s", to,
				to < 0 || to >= (long long)n ? " (outside)" : "");
		}
		if (what != NULL)
			fprintf(fp, "%s %s", t.t_jumps ? ";" : "", what);
		fputc('\n', fp);
	}
}
