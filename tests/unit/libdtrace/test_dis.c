/*
 * test_dis.c -- the BPF disassembler of dtrace -S: every instruction class
 * as the kernel's verifier log spells it, the malformed encodings it must
 * refuse to name, the offsets, comments and notes of whole programs, and
 * random instruction words that must each print a line.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../check.h"
#include "dt_dis.h"
#include "ks.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* the stream's buffer, beyond the reach of GCC 12's -Wdangling-pointer false alarm */
static char *dis_buf;
static size_t dis_len;

/* What dt_dis printed (the caller frees it). */
static char *dis(const struct bpf_insn *insns, size_t n, const char *indent, dt_dis_note_f *note,
		 void *arg)
{
	FILE *fp = open_memstream(&dis_buf, &dis_len);

	if (fp == NULL)
		abort();
	dt_dis(fp, indent, insns, n, note, arg);
	fclose(fp);
	return dis_buf;
}

/*
 * n instructions that must print as one line: check its text, without the
 * offset before it and the comment after.
 */
static void check_one(const struct bpf_insn *insns, size_t n, const char *want)
{
	char *out = dis(insns, n, NULL, NULL, NULL), *text, *end;

	CHECK_INT(strchr(out, '\n') - out + 1, strlen(out)); /* one line */
	CHECK(strncmp(out, "   0: ", 6) == 0);
	text = out + 6;
	if ((end = strchr(text, ';')) == NULL)
		end = strchr(text, '\n');
	while (end > text && end[-1] == ' ')
		end--;
	*end = '\0';
	CHECK_STR(text, want);
	free(out);
}

#define ONE(want, ...)                                                                        \
	check_one((const struct bpf_insn[]){ __VA_ARGS__ },                                   \
		  sizeof((const struct bpf_insn[]){ __VA_ARGS__ }) / sizeof(struct bpf_insn), \
		  want)

static void test_helpers(void)
{
	CHECK_STR(dt_dis_helper(BPF_FUNC_map_lookup_elem), "map_lookup_elem");
	CHECK_STR(dt_dis_helper(5), "ktime_get_ns");
	CHECK_STR(dt_dis_helper(BPF_FUNC_probe_read_user_str), "probe_read_user_str");
	CHECK_STR(dt_dis_helper(__BPF_FUNC_MAX_ID - 1), "user_ringbuf_drain");
	CHECK(dt_dis_helper(0) == NULL);
	CHECK(dt_dis_helper(-1) == NULL);
	CHECK(dt_dis_helper(__BPF_FUNC_MAX_ID) == NULL);
	CHECK(dt_dis_helper(1 << 30) == NULL);

	int missing = 0;

	for (int id = 1; id < __BPF_FUNC_MAX_ID; id++)
		missing += dt_dis_helper(id) == NULL;
	CHECK_INT(missing, 0);
}

static void test_alu(void)
{
	static const struct {
		int op;
		const char *r, *k, *w;
	} ops[] = {
		{ BPF_ADD, "r1 += r2", "r1 += -8", "w1 += w2" },
		{ BPF_SUB, "r1 -= r2", "r1 -= -8", "w1 -= w2" },
		{ BPF_MUL, "r1 *= r2", "r1 *= -8", "w1 *= w2" },
		{ BPF_DIV, "r1 /= r2", "r1 /= -8", "w1 /= w2" },
		{ BPF_OR, "r1 |= r2", "r1 |= -8", "w1 |= w2" },
		{ BPF_AND, "r1 &= r2", "r1 &= -8", "w1 &= w2" },
		{ BPF_LSH, "r1 <<= r2", "r1 <<= -8", "w1 <<= w2" },
		{ BPF_RSH, "r1 >>= r2", "r1 >>= -8", "w1 >>= w2" },
		{ BPF_MOD, "r1 %= r2", "r1 %= -8", "w1 %= w2" },
		{ BPF_XOR, "r1 ^= r2", "r1 ^= -8", "w1 ^= w2" },
		{ BPF_MOV, "r1 = r2", "r1 = -8", "w1 = w2" },
		{ BPF_ARSH, "r1 s>>= r2", "r1 s>>= -8", "w1 s>>= w2" },
	};

	for (size_t i = 0; i < COUNT(ops); i++) {
		ONE(ops[i].r, KS_ALU64_REG(ops[i].op, 1, 2));
		ONE(ops[i].k, KS_ALU64_IMM(ops[i].op, 1, -8));
		ONE(ops[i].w, KS_INSN(BPF_ALU | ops[i].op | BPF_X, 1, 2, 0, 0));
	}
	ONE("w3 -= 7", KS_INSN(BPF_ALU | BPF_SUB | BPF_K, 3, 0, 0, 7));
	ONE("r6 = r1", KS_MOV64_REG(6, 1));
	ONE("r0 = 2147483647", KS_MOV64_IMM(0, 0x7fffffff));
	ONE("r10 += r9", KS_ALU64_REG(BPF_ADD, 10, 9));

	/* neg, and the byte swaps: le/be of ALU, bswap of ALU64 */
	ONE("r4 = -r4", KS_INSN(BPF_ALU64 | BPF_NEG | BPF_K, 4, 0, 0, 0));
	ONE("w4 = -w4", KS_INSN(BPF_ALU | BPF_NEG | BPF_K, 4, 0, 0, 0));
	ONE("r1 = be16 r1", KS_INSN(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 16));
	ONE("r1 = le32 r1", KS_INSN(BPF_ALU | BPF_END | BPF_TO_LE, 1, 0, 0, 32));
	ONE("r2 = be64 r2", KS_INSN(BPF_ALU | BPF_END | BPF_TO_BE, 2, 0, 0, 64));
	ONE("r1 = bswap64 r1", KS_INSN(BPF_ALU64 | BPF_END, 1, 0, 0, 64));
	ONE("r5 = bswap16 r5", KS_INSN(BPF_ALU64 | BPF_END, 5, 0, 0, 16));

	/* the offset forms: sign-extending moves, signed division and modulo */
	ONE("r1 = (s8)r2", KS_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 8, 0));
	ONE("r1 = (s16)r2", KS_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 16, 0));
	ONE("r1 = (s32)r2", KS_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 32, 0));
	ONE("w1 = (s16)w2", KS_INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 16, 0));
	ONE("r1 s/= r2", KS_INSN(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 1, 0));
	ONE("r1 s%= -3", KS_INSN(BPF_ALU64 | BPF_MOD | BPF_K, 1, 0, 1, -3));
	ONE("w1 s/= 3", KS_INSN(BPF_ALU | BPF_DIV | BPF_K, 1, 0, 1, 3));
	ONE("w1 s%= w2", KS_INSN(BPF_ALU | BPF_MOD | BPF_X, 1, 2, 1, 0));
	ONE("r1 = addr_space_cast(r2, 0, 1)",
	    KS_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 1 /* BPF_ADDR_SPACE_CAST */, 1));
}

static void test_jmp(void)
{
	static const struct {
		int op;
		const char *r, *k;
	} ops[] = {
		{ BPF_JEQ, "if r1 == r2 goto pc+1", "if r1 == 0x0 goto pc+1" },
		{ BPF_JGT, "if r1 > r2 goto pc+1", "if r1 > 0x0 goto pc+1" },
		{ BPF_JGE, "if r1 >= r2 goto pc+1", "if r1 >= 0x0 goto pc+1" },
		{ BPF_JSET, "if r1 & r2 goto pc+1", "if r1 & 0x0 goto pc+1" },
		{ BPF_JNE, "if r1 != r2 goto pc+1", "if r1 != 0x0 goto pc+1" },
		{ BPF_JSGT, "if r1 s> r2 goto pc+1", "if r1 s> 0x0 goto pc+1" },
		{ BPF_JSGE, "if r1 s>= r2 goto pc+1", "if r1 s>= 0x0 goto pc+1" },
		{ BPF_JLT, "if r1 < r2 goto pc+1", "if r1 < 0x0 goto pc+1" },
		{ BPF_JLE, "if r1 <= r2 goto pc+1", "if r1 <= 0x0 goto pc+1" },
		{ BPF_JSLT, "if r1 s< r2 goto pc+1", "if r1 s< 0x0 goto pc+1" },
		{ BPF_JSLE, "if r1 s<= r2 goto pc+1", "if r1 s<= 0x0 goto pc+1" },
	};

	for (size_t i = 0; i < COUNT(ops); i++) {
		ONE(ops[i].r, KS_JMP_REG(ops[i].op, 1, 2, 1));
		ONE(ops[i].k, KS_JMP_IMM(ops[i].op, 1, 0, 1));
	}
	ONE("if w1 < 0x5 goto pc-3", KS_INSN(BPF_JMP32 | BPF_JLT | BPF_K, 1, 0, -3, 5));
	ONE("if w3 s> w4 goto pc+7", KS_INSN(BPF_JMP32 | BPF_JSGT | BPF_X, 3, 4, 7, 0));
	ONE("if r1 & 0x4 goto pc+0", KS_JMP_IMM(BPF_JSET, 1, 4, 0));
	ONE("if r1 s< 0xffffffff goto pc+2", KS_JMP_IMM(BPF_JSLT, 1, -1, 2));
	ONE("goto pc-1", KS_JA(-1));
	ONE("gotol pc+100000", KS_INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, 100000));
	ONE("may_goto pc+5", KS_INSN(BPF_JMP | 0xe0, 0, 0, 5, 0));

	ONE("call map_lookup_elem#1", KS_CALL(BPF_FUNC_map_lookup_elem));
	ONE("call ktime_get_ns#5", KS_CALL(5));
	ONE("call perf_event_output#25", KS_CALL(25));
	ONE("call #0", KS_CALL(0));
	ONE("call #9999", KS_CALL(9999));
	ONE("call #-1", KS_CALL(-1));
	ONE("call pc+30", KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 30));
	ONE("call pc-4", KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, -4));
	ONE("call kfunc#77", KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 77));
	ONE("exit", KS_EXIT());
}

static void test_ld(void)
{
	ONE("r3 = 0x123456789abcdef0 ll", KS_LD_IMM64(3, 0x123456789abcdef0ull));
	ONE("r3 = 0xffffffffffffffff ll", KS_LD_IMM64(3, -1));
	ONE("r0 = 0x0 ll", KS_LD_IMM64(0, 0));
	ONE("r3 = 0x80000000 ll", KS_LD_IMM64(3, 0x80000000u));
	ONE("r1 = map_fd 5 ll", KS_LD_MAP_FD(1, 5));
	ONE("r2 = map_value 7 +16 ll",
	    KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 2, BPF_PSEUDO_MAP_VALUE, 0, 7),
	    KS_INSN(0, 0, 0, 0, 16));
	ONE("r2 = map_idx 3 ll", KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 2, BPF_PSEUDO_MAP_IDX, 0, 3),
	    KS_INSN(0, 0, 0, 0, 0));
	ONE("r2 = map_idx_value 3 +8 ll",
	    KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 2, BPF_PSEUDO_MAP_IDX_VALUE, 0, 3),
	    KS_INSN(0, 0, 0, 0, 8));
	ONE("r4 = btf_id 123 ll", KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 4, BPF_PSEUDO_BTF_ID, 0, 123),
	    KS_INSN(0, 0, 0, 0, 0));
	ONE("r4 = btf_id 123 fd 9 ll",
	    KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 4, BPF_PSEUDO_BTF_ID, 0, 123),
	    KS_INSN(0, 0, 0, 0, 9));
	ONE("r1 = func pc+5 ll", KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_FUNC, 0, 5),
	    KS_INSN(0, 0, 0, 0, 0));
	ONE("r0 = *(u16 *)skb[12]", KS_INSN(BPF_LD | BPF_ABS | BPF_H, 0, 0, 0, 12));
	ONE("r0 = *(u8 *)skb[r1 + 2]", KS_INSN(BPF_LD | BPF_IND | BPF_B, 0, 1, 0, 2));

	static const struct {
		int size;
		const char *u, *s;
	} sizes[] = {
		{ BPF_B, "r0 = *(u8 *)(r7 -1)", "r0 = *(s8 *)(r7 -1)" },
		{ BPF_H, "r0 = *(u16 *)(r7 -1)", "r0 = *(s16 *)(r7 -1)" },
		{ BPF_W, "r0 = *(u32 *)(r7 -1)", "r0 = *(s32 *)(r7 -1)" },
		{ BPF_DW, "r0 = *(u64 *)(r7 -1)", ".insn 0x99 dst=0 src=7 off=-1 imm=0" },
	};

	for (size_t i = 0; i < COUNT(sizes); i++) {
		ONE(sizes[i].u, KS_LDX_MEM(sizes[i].size, 0, 7, -1));
		ONE(sizes[i].s,
		    KS_INSN(BPF_LDX | sizes[i].size | 0x80 /* BPF_MEMSX */, 0, 7, -1, 0));
	}
	ONE("r0 = *(u64 *)(r7 +0)", KS_LDX_MEM(BPF_DW, 0, 7, 0));
	ONE("r9 = *(u32 *)(r10 +32767)", KS_LDX_MEM(BPF_W, 9, 10, 32767));
	ONE("r9 = *(u32 *)(r10 -32768)", KS_LDX_MEM(BPF_W, 9, 10, -32768));
}

static void test_st(void)
{
	ONE("*(u32 *)(r10 -8) = 0", KS_ST_MEM(BPF_W, 10, -8, 0));
	ONE("*(u64 *)(r1 +24) = -1", KS_ST_MEM(BPF_DW, 1, 24, -1));
	ONE("*(u16 *)(r2 +2) = 65535", KS_ST_MEM(BPF_H, 2, 2, 65535));
	ONE("*(u8 *)(r10 -1) = 7", KS_ST_MEM(BPF_B, 10, -1, 7));
	ONE("*(u8 *)(r10 -1) = r3", KS_STX_MEM(BPF_B, 10, 3, -1));
	ONE("*(u16 *)(r10 -2) = r3", KS_STX_MEM(BPF_H, 10, 3, -2));
	ONE("*(u32 *)(r10 -4) = r3", KS_STX_MEM(BPF_W, 10, 3, -4));
	ONE("*(u64 *)(r10 -8) = r3", KS_STX_MEM(BPF_DW, 10, 3, -8));

#define ATOMIC(sz, d, s, off, op) KS_INSN(BPF_STX | (sz) | BPF_ATOMIC, d, s, off, op)
	ONE("lock *(u64 *)(r0 +16) += r1", KS_ATOMIC_ADD64(0, 1, 16));
	ONE("lock *(u32 *)(r1 +4) += r2", ATOMIC(BPF_W, 1, 2, 4, BPF_ADD));
	ONE("lock *(u32 *)(r1 +4) &= r2", ATOMIC(BPF_W, 1, 2, 4, BPF_AND));
	ONE("lock *(u64 *)(r1 +4) |= r2", ATOMIC(BPF_DW, 1, 2, 4, BPF_OR));
	ONE("lock *(u64 *)(r1 +4) ^= r2", ATOMIC(BPF_DW, 1, 2, 4, BPF_XOR));
	ONE("r2 = atomic64_fetch_add((u64 *)(r1 +0), r2)",
	    ATOMIC(BPF_DW, 1, 2, 0, BPF_ADD | BPF_FETCH));
	ONE("r2 = atomic_fetch_and((u32 *)(r1 -8), r2)",
	    ATOMIC(BPF_W, 1, 2, -8, BPF_AND | BPF_FETCH));
	ONE("r2 = atomic64_fetch_or((u64 *)(r1 +0), r2)",
	    ATOMIC(BPF_DW, 1, 2, 0, BPF_OR | BPF_FETCH));
	ONE("r2 = atomic_fetch_xor((u32 *)(r1 -8), r2)",
	    ATOMIC(BPF_W, 1, 2, -8, BPF_XOR | BPF_FETCH));
	ONE("r3 = atomic64_xchg((u64 *)(r1 +0), r3)", ATOMIC(BPF_DW, 1, 3, 0, BPF_XCHG));
	ONE("r3 = atomic_xchg((u32 *)(r1 +0), r3)", ATOMIC(BPF_W, 1, 3, 0, BPF_XCHG));
	ONE("r0 = atomic64_cmpxchg((u64 *)(r1 +8), r0, r2)", ATOMIC(BPF_DW, 1, 2, 8, BPF_CMPXCHG));
	ONE("r0 = atomic_cmpxchg((u32 *)(r1 +0), r0, r2)", ATOMIC(BPF_W, 1, 2, 0, BPF_CMPXCHG));

	/* no byte or half-word atomics, no atomic subtraction */
	ONE(".insn 0xd3 dst=1 src=2 off=0 imm=0", ATOMIC(BPF_B, 1, 2, 0, BPF_ADD));
	ONE(".insn 0xcb dst=1 src=2 off=0 imm=0", ATOMIC(BPF_H, 1, 2, 0, BPF_ADD));
	ONE(".insn 0xdb dst=1 src=2 off=0 imm=16", ATOMIC(BPF_DW, 1, 2, 0, BPF_SUB));
	ONE(".insn 0xdb dst=1 src=2 off=0 imm=17", ATOMIC(BPF_DW, 1, 2, 0, BPF_SUB | BPF_FETCH));
	ONE(".insn 0xdb dst=1 src=2 off=0 imm=256", ATOMIC(BPF_DW, 1, 2, 0, 0x100));
	ONE(".insn 0xdb dst=1 src=2 off=0 imm=-2147483648", ATOMIC(BPF_DW, 1, 2, 0, INT32_MIN));
#undef ATOMIC
}

/* Encodings the kernel refuses: raw fields, never a name they do not have. */
static void test_malformed(void)
{
	ONE(".insn 0xff dst=0 src=0 off=0 imm=0", KS_INSN(0xff, 0, 0, 0, 0));
	ONE(".insn 0x00 dst=0 src=0 off=0 imm=0", KS_INSN(0, 0, 0, 0, 0));
	ONE(".insn 0xe7 dst=1 src=0 off=0 imm=0", KS_INSN(0xe7, 1, 0, 0, 0)); /* ALU op 0xe0 */
	ONE(".insn 0xf5 dst=1 src=0 off=0 imm=0", KS_INSN(0xf5, 1, 0, 0, 0)); /* JMP op 0xf0 */
	/* registers past r10 */
	ONE(".insn 0xbf dst=11 src=1 off=0 imm=0", KS_MOV64_REG(11, 1));
	ONE(".insn 0xbf dst=1 src=15 off=0 imm=0", KS_MOV64_REG(1, 15));
	ONE(".insn 0x79 dst=0 src=12 off=0 imm=0", KS_LDX_MEM(BPF_DW, 0, 12, 0));
	ONE(".insn 0x62 dst=11 src=0 off=0 imm=0", KS_ST_MEM(BPF_W, 11, 0, 0));
	ONE(".insn 0x1d dst=1 src=13 off=0 imm=0", KS_JMP_REG(BPF_JEQ, 1, 13, 0));
	/* reserved fields that are not zero */
	ONE(".insn 0x07 dst=1 src=2 off=0 imm=5", KS_INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 2, 0, 5));
	ONE(".insn 0x0f dst=1 src=2 off=0 imm=5", KS_INSN(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 0, 5));
	ONE(".insn 0x0f dst=1 src=2 off=1 imm=0", KS_INSN(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 1, 0));
	ONE(".insn 0x3f dst=1 src=2 off=2 imm=0", KS_INSN(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 2, 0));
	ONE(".insn 0xb7 dst=1 src=0 off=8 imm=0", KS_INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 8, 0));
	ONE(".insn 0xbc dst=1 src=2 off=32 imm=0", KS_INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 32, 0));
	ONE(".insn 0xbc dst=1 src=2 off=1 imm=0", KS_INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 1, 0));
	ONE(".insn 0x87 dst=1 src=0 off=0 imm=1", KS_INSN(BPF_ALU64 | BPF_NEG, 1, 0, 0, 1));
	ONE(".insn 0x8f dst=1 src=0 off=0 imm=0", KS_INSN(BPF_ALU64 | BPF_NEG | BPF_X, 1, 0, 0, 0));
	ONE(".insn 0xd4 dst=1 src=0 off=0 imm=8", KS_INSN(BPF_ALU | BPF_END, 1, 0, 0, 8));
	ONE(".insn 0xdf dst=1 src=0 off=0 imm=16",
	    KS_INSN(BPF_ALU64 | BPF_END | BPF_X, 1, 0, 0, 16));
	ONE(".insn 0x95 dst=0 src=0 off=0 imm=1", KS_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 1));
	ONE(".insn 0x96 dst=0 src=0 off=0 imm=0", KS_INSN(BPF_JMP32 | BPF_EXIT, 0, 0, 0, 0));
	ONE(".insn 0x86 dst=0 src=0 off=0 imm=1", KS_INSN(BPF_JMP32 | BPF_CALL, 0, 0, 0, 1));
	ONE(".insn 0x85 dst=0 src=3 off=0 imm=1", KS_INSN(BPF_JMP | BPF_CALL, 0, 3, 0, 1));
	ONE(".insn 0x85 dst=1 src=0 off=0 imm=1", KS_INSN(BPF_JMP | BPF_CALL, 1, 0, 0, 1));
	ONE(".insn 0x05 dst=0 src=0 off=1 imm=1", KS_INSN(BPF_JMP | BPF_JA, 0, 0, 1, 1));
	ONE(".insn 0x06 dst=0 src=0 off=1 imm=1", KS_INSN(BPF_JMP32 | BPF_JA, 0, 0, 1, 1));
	ONE(".insn 0x15 dst=1 src=2 off=0 imm=0", KS_INSN(BPF_JMP | BPF_JEQ | BPF_K, 1, 2, 0, 0));
	ONE(".insn 0x1d dst=1 src=2 off=0 imm=3", KS_INSN(BPF_JMP | BPF_JEQ | BPF_X, 1, 2, 0, 3));
	ONE(".insn 0xe6 dst=0 src=0 off=1 imm=0", KS_INSN(BPF_JMP32 | 0xe0, 0, 0, 1, 0));
	ONE(".insn 0xe5 dst=0 src=1 off=1 imm=0", KS_INSN(BPF_JMP | 0xe0, 0, 1, 1, 0));
	ONE(".insn 0x7a dst=1 src=2 off=0 imm=0", KS_INSN(BPF_ST | BPF_MEM | BPF_DW, 1, 2, 0, 0));
	ONE(".insn 0x63 dst=1 src=2 off=0 imm=4", KS_INSN(BPF_STX | BPF_MEM | BPF_W, 1, 2, 0, 4));
	ONE(".insn 0x61 dst=1 src=2 off=0 imm=4", KS_INSN(BPF_LDX | BPF_MEM | BPF_W, 1, 2, 0, 4));
	ONE(".insn 0x20 dst=1 src=0 off=0 imm=4", KS_INSN(BPF_LD | BPF_ABS | BPF_W, 1, 0, 0, 4));
	ONE(".insn 0x38 dst=0 src=0 off=0 imm=4", KS_INSN(BPF_LD | BPF_ABS | BPF_DW, 0, 0, 0, 4));
	ONE(".insn 0x20 dst=0 src=1 off=0 imm=4", KS_INSN(BPF_LD | BPF_ABS | BPF_W, 0, 1, 0, 4));
	ONE(".insn 0x00 dst=1 src=0 off=0 imm=4", KS_INSN(BPF_LD | BPF_IMM | BPF_W, 1, 0, 0, 4));
	ONE(".insn 0x01 dst=0 src=0 off=0 imm=0", KS_INSN(BPF_LDX | BPF_IMM | BPF_W, 0, 0, 0, 0));

	/* a 64-bit load cut short, or whose second half is not one */
	ONE(".insn 0x18 dst=1 src=0 off=0 imm=5", KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, 0, 0, 5));

	const struct bpf_insn bad_hi[] = {
		KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, 0, 0, 5),
		KS_EXIT(),
	};
	char *out = dis(bad_hi, COUNT(bad_hi), NULL, NULL, NULL);

	CHECK_STR(out, "   0: .insn 0x18 dst=1 src=0 off=0 imm=5\n"
		       "   1: exit\n");
	free(out);

	const struct bpf_insn bad_pseudo[] = {
		KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, 7, 0, 5), /* src 7: none such */
		KS_INSN(0, 0, 0, 0, 0),
		KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, 5),
		KS_INSN(0, 0, 0, 0, 1), /* a map fd has no second half */
		KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, 0, 0, 5),
		KS_INSN(0, 0, 0, 1, 0), /* nor an offset */
	};

	out = dis(bad_pseudo, COUNT(bad_pseudo), NULL, NULL, NULL);
	CHECK_STR(out, "   0: .insn 0x18 dst=1 src=7 off=0 imm=5\n"
		       "   1: .insn 0x00 dst=0 src=0 off=0 imm=0\n"
		       "   2: .insn 0x18 dst=1 src=1 off=0 imm=5\n"
		       "   3: .insn 0x00 dst=0 src=0 off=0 imm=1\n"
		       "   4: .insn 0x18 dst=1 src=0 off=0 imm=5\n"
		       "   5: .insn 0x00 dst=0 src=0 off=1 imm=0\n");
	free(out);
}

static const char *note_state(size_t i, void *arg)
{
	(*(int *)arg)++;
	switch (i) {
	case 2: return "dt_state";
	case 8: return "epid";
	case 10: return "counter";
	case 11: return "clause 2";
	}
	return NULL;
}

/* Whole programs: offsets, 64-bit loads taking two, comments and notes in one column. */
static void test_program(void)
{
	const struct bpf_insn prog[] = {
		KS_MOV64_REG(6, 1),
		KS_ST_MEM(BPF_W, 10, -8, 0),
		KS_LD_MAP_FD(1, 5),
		KS_MOV64_REG(2, 10),
		KS_ALU64_IMM(BPF_ADD, 2, -8),
		KS_CALL(BPF_FUNC_map_lookup_elem),
		KS_JMP_IMM(BPF_JEQ, 0, 0, 4),
		KS_LDX_MEM(BPF_DW, 1, 0, 0),
		KS_ST_MEM(BPF_W, 10, -16, 3),
		KS_ATOMIC_ADD64(0, 1, 16),
		KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1),
		KS_EXIT(),
		KS_JA(-14),
		KS_JMP_IMM(BPF_JGT, 1, 2, 20),
	};
	int calls = 0;
	char *out = dis(prog, COUNT(prog), "\t", note_state, &calls);

	CHECK_STR(out, "\t   0: r6 = r1\n"
		       "\t   1: *(u32 *)(r10 -8) = 0\n"
		       "\t   2: r1 = map_fd 5 ll            ; dt_state\n"
		       "\t   4: r2 = r10\n"
		       "\t   5: r2 += -8\n"
		       "\t   6: call map_lookup_elem#1\n"
		       "\t   7: if r0 == 0x0 goto pc+4      ; -> 12\n"
		       "\t   8: r1 = *(u64 *)(r0 +0)        ; epid\n"
		       "\t   9: *(u32 *)(r10 -16) = 3\n"
		       "\t  10: lock *(u64 *)(r0 +16) += r1 ; counter\n"
		       "\t  11: call pc+1                   ; -> 13; clause 2\n"
		       "\t  12: exit\n"
		       "\t  13: goto pc-14                  ; -> 0\n"
		       "\t  14: if r1 > 0x2 goto pc+20      ; -> 35 (outside)\n");
	CHECK_INT(calls, 14); /* once a line */
	free(out);

	/* no indent and no notes; the line of a long text keeps one space before ';' */
	const struct bpf_insn call[] = {
		KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1),
		KS_EXIT(),
		KS_INSN(BPF_STX | BPF_DW | BPF_ATOMIC, 1, 2, 8, BPF_CMPXCHG),
		KS_JMP_IMM(BPF_JSGE, 10, -1, 32767),
	};

	out = dis(call, COUNT(call), NULL, NULL, NULL);
	CHECK_STR(out, "   0: call pc+1                   ; -> 2\n"
		       "   1: exit\n"
		       "   2: r0 = atomic64_cmpxchg((u64 *)(r1 +8), r0, r2)\n"
		       "   3: if r10 s>= 0xffffffff goto pc+32767 ; -> 32771 (outside)\n");
	free(out);

	out = dis(call, 0, "\t", note_state, &calls);
	CHECK_STR(out, "");
	free(out);
	CHECK_INT(calls, 14);

	/* a target in the middle of a 64-bit load is not hidden */
	const struct bpf_insn mid[] = {
		KS_LD_IMM64(1, 1),
		KS_JA(-2),
		KS_INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_FUNC, 0, -4),
		KS_INSN(0, 0, 0, 0, 0),
	};

	out = dis(mid, COUNT(mid), "", NULL, NULL);
	CHECK_STR(out, "   0: r1 = 0x1 ll\n"
		       "   2: goto pc-2                   ; -> 1\n"
		       "   3: r1 = func pc-4 ll           ; -> 0\n");
	free(out);
}

/* Offsets are as wide as the largest, four digits at least. */
static void test_width(void)
{
	enum { N = 10001 };
	struct bpf_insn *prog = malloc(N * sizeof(*prog));
	char *out, *last;

	if (prog == NULL)
		abort();
	for (size_t i = 0; i < N; i++)
		prog[i] = KS_EXIT();
	out = dis(prog, N, NULL, NULL, NULL);
	CHECK(strncmp(out, "    0: exit\n    1: exit\n", 24) == 0);
	last = strstr(out, " 9999: exit\n10000: exit\n");
	CHECK(last != NULL && strlen(last) == 24);
	free(out);
	out = dis(prog, 10000, NULL, NULL, NULL);
	CHECK(strncmp(out, "   0: exit\n", 11) == 0);
	CHECK(strcmp(out + strlen(out) - 11, "9999: exit\n") == 0);
	free(out);
	free(prog);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static const char *note_odd(size_t i, void *arg)
{
	(void)arg;
	return i % 2 ? "odd" : NULL;
}

/*
 * Random instruction words, half of them with an opcode that exists and
 * small registers and fields so that valid encodings come up too: every
 * instruction gets a line with text, and the line after a 64-bit load's is
 * two on.
 */
static void test_random(void)
{
	static const uint8_t codes[] = {
		0x07, 0x0f, 0x04, 0x0c, 0x3f, 0x9c, 0x87, 0xb7, 0xbf, 0xbc, 0xd4, 0xdc, 0xd7,
		0x05, 0x06, 0x15, 0x1d, 0x16, 0x4e, 0xd5, 0x85, 0x95, 0xe5, 0x18, 0x20, 0x50,
		0x61, 0x69, 0x71, 0x79, 0x81, 0x89, 0x91, 0x62, 0x7a, 0x63, 0x7b, 0xc3, 0xdb,
	};
	static const int32_t imms[] = { 0, 0, 1, 16, 32, 64, -8, 0x41, 0xa1, 0xe1, 0xf1 };
	enum { N = 64, ROUNDS = 1500 };
	struct bpf_insn prog[N];
	size_t named = 0, raw = 0, wide = 0, bad_lines = 0;

	for (int round = 0; round < ROUNDS; round++) {
		for (size_t i = 0; i < N; i++) {
			uint64_t w = rnd();

			memcpy(&prog[i], &w, sizeof(w));
			if (w >> 63) {
				prog[i].code = codes[rnd() % COUNT(codes)];
				prog[i].dst_reg %= 11;
				prog[i].src_reg = rnd() % 2 ? 0 : prog[i].src_reg % 7;
				prog[i].off = (int16_t)(rnd() % 4 == 0 ? (int)(w % 64) - 32 : 0);
				prog[i].imm = imms[rnd() % COUNT(imms)];
			}
			if (prog[i].code == 0x18 && i + 1 < N && rnd() % 2 == 0)
				prog[++i] = KS_INSN(0, 0, 0, 0, rnd() % 2 ? 0 : (int32_t)rnd());
		}
		char *out = dis(prog, N, "  ", round % 2 ? note_odd : NULL, NULL);
		long expect = 0;

		for (char *line = out, *nl; *line != '\0'; line = nl + 1) {
			char *end, *text, *stop;

			nl = strchr(line, '\n');
			if (nl == NULL || strncmp(line, "  ", 2) != 0 ||
			    strtol(line + 2, &end, 10) != expect || strncmp(end, ": ", 2) != 0) {
				bad_lines++;
				break;
			}
			/* the instruction's text, before its comment */
			text = end + 2;
			stop = memchr(text, ';', (size_t)(nl - text));
			stop = stop != NULL ? stop : nl;
			while (stop > text && stop[-1] == ' ')
				stop--;
			if (stop == text) {
				bad_lines++;
				break;
			}
			raw += strncmp(text, ".insn ", 6) == 0;
			named += strncmp(text, ".insn ", 6) != 0;
			/* the next line is one on, or two after a 64-bit load */
			if (stop - text > 3 && strncmp(stop - 3, " ll", 3) == 0) {
				wide++;
				expect++;
			}
			expect++;
		}
		CHECK_INT(expect, N);
		free(out);
	}
	CHECK_INT(bad_lines, 0);
	/* both paths were taken, many times */
	CHECK(named > 10000);
	CHECK(raw > 10000);
	CHECK(wide > 100);
}

int main(void)
{
	test_helpers();
	test_alu();
	test_jmp();
	test_ld();
	test_st();
	test_malformed();
	test_program();
	test_width();
	test_random();
	return CHECK_DONE();
}
