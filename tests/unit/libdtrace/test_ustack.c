/*
 * test_ustack.c -- the user stack walker (libdtrace/bpf/dt_ustack.c) on a
 * synthetic stack: hand-built unwind rows (rsp- and rbp-based, .plt, a
 * signal frame, a CFA offset beyond 16 bits, an explicit frame pointer
 * row, a gap, _start's end) and a fake stack in this program's memory,
 * walked twice:
 *   - by the body built for the host (dt_bpf_env.h's helpers, the maps
 *     below);
 *   - in the kernel: the BPF the build made of it (dt_bpf_funcs[], as
 *     bpf2c wrote it, its map relocations DT_BPF_R_MAP filled in with
 *     maps made here), called by a raw tracepoint program run once in
 *     this thread (BPF_PROG_TEST_RUN), so bpf_get_current_pid_tgid() is
 *     this process and bpf_probe_read_user() reads its stack.  It prints
 *     the verifier's instruction count.  Without BPF (not root) that
 *     half is skipped.
 * Each scenario checks the PCs, the frame count and the flags.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../check.h"
#include "bpf/dt_ustack.c"
#include "dt_impl.h"
#include "dt_program.h"
#include "ks.h"

#define NROWS  16
#define NFR    16
#define BIAS   0x400000ull /* the fake executable: file address + BIAS */
#define TEXT   0x401000ull /* its mapping, to 0x402000 */
#define JIT    0x600000ull /* anonymous executable memory: no table */
#define STKLEN 0x31000

/* ---------------------------------------------------------------- the tables */

char dt_unw_rows[1], dt_unw_procs[1], dt_unw_req[1]; /* the host's maps: tags */
static dt_unw_row_t rows[NROWS];
static dt_unw_proc_t proc;
static int have_proc;
static u64 stk[STKLEN / 8];

/* the host's dt_unw_req: a few keys */
#define NREQ 4
static u32 reqkey[NREQ];
static u64 reqval[NREQ];
static int nreq;

void *dt_host_map_lookup(void *map, const void *key)
{
	u32 k = *(const u32 *)key;

	if (map == dt_unw_rows)
		return k < NROWS ? &rows[k] : NULL;
	if (map == dt_unw_procs)
		return have_proc && k == (u32)getpid() ? &proc : NULL;
	for (int i = 0; map == dt_unw_req && i < nreq; i++)
		if (reqkey[i] == k)
			return &reqval[i];
	return NULL;
}

long dt_host_map_update(void *map, const void *key, const void *val, u64 flags)
{
	(void)flags;
	if (map != dt_unw_req || nreq == NREQ)
		return -7; /* -E2BIG */
	reqkey[nreq] = *(const u32 *)key;
	memcpy(&reqval[nreq++], val, 8);
	return 0;
}

static u64 host_req(u32 key)
{
	u64 *v = dt_host_map_lookup(dt_unw_req, &key);

	return v != NULL ? *v : 0;
}

u64 dt_host_pid_tgid(void)
{
	return (u64)getpid() << 32 | (u32)getpid();
}

static int nrows;

static void row(u32 pc, int kind, int cfa_off, int rbp_kind, int rbp_off)
{
	rows[nrows++] = (dt_unw_row_t){ .ur_pc = pc,
					.ur_cfa = (unsigned char)kind,
					.ur_cfa_off = cfa_off,
					.ur_rbp = (unsigned char)rbp_kind,
					.ur_rbp_off = (short)rbp_off };
}

/* the fake executable's file addresses: one row a function, and a gap */
static void tables(void)
{
	row(0x1000, DT_UNW_RSP, 16, DT_UNW_AT_CFA_OFF, -16); /* push %rbp done */
	row(0x1100, DT_UNW_RBP, 16, DT_UNW_AT_CFA_OFF, -16); /* mov %rsp,%rbp done */
	row(0x1200, DT_UNW_PLT1, 0, DT_UNW_SAME, 0);	     /* .plt */
	row(0x1300, DT_UNW_SIGNAL, 0, DT_UNW_SAME, 0);	     /* __restore_rt (and its nop) */
	row(0x1310, DT_UNW_RSP, 0x20008, DT_UNW_SAME, 0);    /* a 128 KB frame */
	row(0x1400, DT_UNW_END, 0, DT_UNW_SAME, 0);	     /* a gap between FDEs */
	row(0x1500, DT_UNW_FP, 0, DT_UNW_SAME, 0);	     /* no rule: frame pointers */
	row(0x1600, DT_UNW_RSP, 8, DT_UNW_SAME, 0);
	row(0x1700, DT_UNW_END, 0, DT_UNW_SAME, 0); /* _start: no return address */
	/* a second file, its rows after the first's: nothing before 0x2000 */
	row(0x2000, DT_UNW_RSP, 8, DT_UNW_SAME, 0);

	proc.up_n = 3;
	proc.up_maps[0] = (dt_unw_map_t){ TEXT, TEXT + 0x1000, BIAS, 0, 9 };
	proc.up_maps[1] = (dt_unw_map_t){ JIT, JIT + 0x1000, JIT, 0, 0 };
	proc.up_maps[2] = (dt_unw_map_t){ 0x700000, 0x704000, 0x700000 - 0x1000, 9, 10 };
	have_proc = 1;
}

static u64 at(u64 off)
{
	return (u64)(uintptr_t)stk + off;
}

static void put(u64 off, u64 v)
{
	stk[off / 8] = v;
}

/*
 * The stack of the first scenario, innermost first, with each frame's
 * rule: the registers at the first PC are { 0x40120b, at(0x100), 0 }.
 */
static const u64 walk1[] = {
	0x40120b, /* .plt, (pc & 15) >= 11: cfa = rsp + 16 */
	0x401050, /* rsp + 16, rbp saved at cfa - 16 */
	0x401120, /* rbp + 16 */
	0x401301, /* the signal trampoline: the registers from the ucontext */
	0x401310, /* interrupted there: looked up as is (0x130f is the trampoline) */
	0x600010, /* anonymous memory: [rbp], [rbp + 8] */
	0x401550, /* a row without a rule: the same */
	0x401650, /* rsp + 8 */
	0x401405, /* in a gap: the walk ends */
};

static void stack1(void)
{
	memset(stk, 0x5a, sizeof(stk)); /* every page present: the kernel reads without faults */
	put(0x108, 0x401050);		/* .plt: the return address at cfa - 8 */
	put(0x110, at(0x200));		/* rsp + 16: rbp */
	put(0x118, 0x401120);		/* and the return address */
	put(0x200, 0);			/* rbp + 16: [rbp] */
	put(0x208, 0x401301);
	put(0x210 + DT_UNW_SIG_RIP, 0x401310); /* the ucontext at the trampoline's rsp */
	put(0x210 + DT_UNW_SIG_RSP, at(0x1000));
	put(0x210 + DT_UNW_SIG_RBP, at(0x30000));
	put(0x1000 + 0x20000, 0x600010); /* cfa = rsp + 0x20008 */
	put(0x30000, at(0x30100));	 /* frame pointers */
	put(0x30008, 0x401550);
	put(0x30100, 0x1234);
	put(0x30108, 0x401650);
	put(0x30110, 0x401405); /* rsp + 8, rsp = the last rbp + 16 */
}

/* a frame pointer chain from at(0x300): three frames, then a zero return address */
static void stack2(void)
{
	memset(stk, 0x5a, sizeof(stk));
	put(0x300, at(0x400));
	put(0x308, 0x401a00);
	put(0x400, at(0x500));
	put(0x408, 0x702345);
	put(0x500, 0);
	put(0x508, 0);
}

/* the mapping search, without branches: every count of mappings, every place */
static void test_find_map(void)
{
	static dt_unw_proc_t p;
	dt_unw_map_t m;

	for (u32 n = 0; n <= DT_UNW_MAXMAPS; n++) {
		p.up_n = n;
		for (u32 j = 0; j < n; j++)
			p.up_maps[j] = (dt_unw_map_t){ 0x10000ull * (j + 1),
						       0x10000ull * (j + 1) + 0x8000, 0, j, j + 1 };
		for (u32 j = 0; j < n; j++) {
			u64 start = 0x10000ull * (j + 1);

			CHECK(find_map(&p, start, &m) == 0 && m.um_lo == j);
			CHECK(find_map(&p, start + 0x7fff, &m) == 0 && m.um_lo == j);
			CHECK(find_map(&p, start + 0x8000, &m) == -1); /* after its end */
			CHECK(find_map(&p, start - 1, &m) == -1);      /* before its start */
		}
		CHECK(find_map(&p, 0, &m) == -1);
		CHECK(find_map(&p, 0x7fffffffffffull, &m) == -1);
	}
}

/*
 * What a compile makes of the bodies (dt_cg_sub_bpf): the maps they name
 * become DT_RL_MAP relocations of their ld_imm64, which linking fills in
 * with the run's maps (dt_link.c)
 */
static void test_compiled(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	const dt_pstate_t *ps;
	int nrowrel = 0, nprocrel = 0, nreqrel = 0;
	char name[64];

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { }", "u.d", 0, 0, NULL) != NULL);
	ps = dtp->dt_pstate;
	for (int k = DT_SUBR_USTACK_FRAME; k <= DT_SUBR_USTACK; k++) {
		const dt_frag_t *fr = &ps->ps_subrs[k];

		for (size_t i = 0; i < fr->fr_nrel; i++) {
			const dt_reloc_t *rl = &fr->fr_rel[i];

			if (rl->rl_kind != DT_RL_MAP)
				continue;
			CHECK_INT(fr->fr_insns[rl->rl_insn].code, BPF_LD | BPF_DW | BPF_IMM);
			dt_reloc_name(dtp, rl, name, sizeof(name));
			if (k == DT_SUBR_USTACK_FRAME) {
				CHECK_STR(name, "map dt_unw_rows");
				nrowrel++;
			} else if (strcmp(name, "map dt_unw_req") == 0) {
				nreqrel++;
			} else {
				CHECK_STR(name, "map dt_unw_procs");
				nprocrel++;
			}
		}
	}
	CHECK_INT(nrowrel, 2); /* the search's lookup, and the row's */
	CHECK_INT(nprocrel, 1);
	CHECK(nreqrel >= 1); /* the requests for tables */
	dtrace_close(dtp);
}

/* ---------------------------------------------------------------- the kernel */

static int kfd[3] = { -1, -1, -1 }, outfd = -1, progfd = -1;
static uint32_t verified;

static void ks_put(ks_code_t *c, struct bpf_insn in)
{
	ks_emit(c, &in, 1);
}

/* a program that calls dt_ustack(out + 8, n, pc, sp, bp) and stores its result at out */
static int kernel_load(void)
{
	static char log[1 << 16];
	ks_code_t c = { 0 };
	size_t start[DT_SUBR_N] = { 0 };
	bool want[DT_SUBR_N] = { false };
	int added;
	struct bpf_prog_info info;
	union bpf_attr attr;

	kfd[0] =
	    ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_unw_rows", 4, sizeof(dt_unw_row_t), NROWS, 0);
	kfd[1] = ks_map_create(BPF_MAP_TYPE_HASH, "dt_unw_procs", 4, sizeof(dt_unw_proc_t), 8, 0);
	kfd[2] = ks_map_create(BPF_MAP_TYPE_HASH, "dt_unw_req", 4, 8, 8, 0);
	outfd = ks_map_create(BPF_MAP_TYPE_ARRAY, "ustack_out", 4, 8 * (4 + NFR), 1, 0);
	if (kfd[0] < 0 || kfd[1] < 0 || kfd[2] < 0 || outfd < 0)
		return kfd[0] < 0 ? kfd[0] : kfd[1] < 0 ? kfd[1] : kfd[2] < 0 ? kfd[2] : outfd;

	/* the caller: out's value is the result, NFR frames, then pc, sp and bp */
	ks_put(&c, KS_ST_MEM(BPF_W, BPF_REG_10, -4, 0));
	ks_put(&c, KS_MOV64_REG(BPF_REG_2, BPF_REG_10));
	ks_put(&c, KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	{
		struct bpf_insn ld[] = { KS_LD_MAP_FD(BPF_REG_1, outfd) };

		ks_emit(&c, ld, 2);
	}
	ks_put(&c, KS_CALL(BPF_FUNC_map_lookup_elem));
	ks_put(&c, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 9));
	ks_put(&c, KS_MOV64_REG(BPF_REG_6, BPF_REG_0));
	ks_put(&c, KS_MOV64_REG(BPF_REG_1, BPF_REG_0));
	ks_put(&c, KS_ALU64_IMM(BPF_ADD, BPF_REG_1, 8));
	ks_put(&c, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8 + 8 * NFR));
	ks_put(&c, KS_LDX_MEM(BPF_DW, BPF_REG_4, BPF_REG_6, 16 + 8 * NFR));
	ks_put(&c, KS_LDX_MEM(BPF_DW, BPF_REG_5, BPF_REG_6, 24 + 8 * NFR));
	ks_put(&c, KS_MOV64_IMM(BPF_REG_2, NFR));
	ks_put(&c, KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0)); /* dt_ustack: 14 */
	ks_put(&c, KS_STX_MEM(BPF_DW, BPF_REG_6, BPF_REG_0, 0));
	ks_put(&c, KS_MOV64_IMM(BPF_REG_0, 0));
	ks_put(&c, KS_EXIT());

	/* the bodies it needs, each after the last, as linking appends them */
	want[DT_SUBR_USTACK] = true;
	do {
		added = 0;
		for (int s = DT_SUBR_BPF; s < DT_SUBR_N; s++) {
			const dt_bpf_func_t *f = &dt_bpf_funcs[s - DT_SUBR_BPF];

			if (!want[s] || start[s] != 0)
				continue;
			start[s] = c.kc_len;
			ks_emit(&c, f->bf_insns, f->bf_len);
			for (size_t r = 0; r < f->bf_nrels; r++)
				if (f->bf_rels[r].br_kind == DT_BPF_R_CALL ||
				    f->bf_rels[r].br_kind == DT_BPF_R_FUNC)
					want[f->bf_rels[r].br_to] = true;
			added++;
		}
	} while (added > 0);
	for (int s = DT_SUBR_BPF; s < DT_SUBR_N; s++) {
		const dt_bpf_func_t *f = &dt_bpf_funcs[s - DT_SUBR_BPF];

		if (!want[s])
			continue;
		for (size_t r = 0; r < f->bf_nrels; r++) {
			const dt_bpf_rel_t *rl = &f->bf_rels[r];
			struct bpf_insn *in = &c.kc_insns[start[s] + rl->br_insn];

			switch (rl->br_kind) {
			case DT_BPF_R_CALL:
			case DT_BPF_R_FUNC:
				in->imm =
				    (int32_t)(start[rl->br_to] - (start[s] + rl->br_insn + 1));
				break;
			case DT_BPF_R_MAP:
				CHECK(rl->br_to == DT_MAP_UNW_ROWS ||
				      rl->br_to == DT_MAP_UNW_PROCS || rl->br_to == DT_MAP_UNW_REQ);
				in->src_reg = BPF_PSEUDO_MAP_FD;
				in->imm = rl->br_to == DT_MAP_UNW_ROWS	  ? kfd[0]
					  : rl->br_to == DT_MAP_UNW_PROCS ? kfd[1]
									  : kfd[2];
				break;
			default: break;
			}
		}
	}
	c.kc_insns[14].imm = (int32_t)(start[DT_SUBR_USTACK] - 15);
	CHECK(!c.kc_oom);

	progfd = ks_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "ustack_test", &c, log, sizeof(log));
	ks_code_free(&c);
	if (progfd < 0) {
		fprintf(stderr, "the verifier refused the walker (%d):\n%s\n", progfd, log);
		return progfd;
	}
	/* the verifier's count (a test may call bpf(2); libdtrace may not) */
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)progfd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) == 0)
		verified = info.verified_insns;
	return 0;
}

/* ---------------------------------------------------------------- the scenarios */

typedef u64 walk_f(u64 *out, u64 pc, u64 sp, u64 bp);
typedef u64 req_f(u32 key);

static u64 host_walk(u64 *out, u64 pc, u64 sp, u64 bp)
{
	memset(out, 0xee, NFR * 8);
	return dt_ustack(out, NFR, pc, sp, bp);
}

static void scenarios(walk_f *walk, req_f *req, const char *who)
{
	u64 out[NFR], res;
	u32 pid = (u32)getpid();
	u64 remaps = req(pid | DT_UNW_REQ_REMAP);

	printf("%s:\n", who);
	stack1();
	res = walk(out, 0x40120b, at(0x100), 0);
	CHECK_INT(DT_USTACK_NFRAMES(res), 9);
	CHECK_INT(res & ~0xffffffffull, 0);
	for (int i = 0; i < NFR; i++) {
		CHECK_INT(out[i], i < 9 ? walk1[i] : 0);
		if (i < 9)
			printf("  %#llx\n", out[i]);
	}

	/* frame pointers where a PC is before its file's first row, and a zero return */
	stack2();
	res = walk(out, 0x700800, at(0x100), at(0x300));
	CHECK_INT(res, 2);
	CHECK_INT(out[0], 0x700800);
	CHECK_INT(out[1], 0x401a00); /* 0x19ff: _start's end (0x1700): it stops */
	CHECK_INT(out[2], 0);

	stack2();
	res = walk(out, 0x40150f, at(0x100), at(0x300)); /* an explicit FP row */
	CHECK_INT(DT_USTACK_NFRAMES(res), 2);
	CHECK_INT(out[1], 0x401a00);

	/* a PC in no mapping: a frame pointer step, and the flag */
	stack2();
	put(0x308, 0x600100);
	put(0x410, 0);
	res = walk(out, 0x900000, at(0x100), at(0x300));
	CHECK_INT(res, DT_USTACK_UNMAPPED | 3);
	CHECK_INT(req(pid | DT_UNW_REQ_REMAP), remaps + 1); /* the consumer is asked */
	CHECK_INT(req(pid), 0);
	CHECK_INT(out[1], 0x600100); /* no table: [rbp + 8] again */
	CHECK_INT(out[2], 0x702345); /* rsp + 8 (rsp = rbp + 16), where 0 ends it */
	CHECK_INT(out[3], 0);

	/* a frame pointer that points to itself: the walk stops, it does not repeat */
	stack2();
	put(0x300, at(0x300));
	put(0x308, 0x600200);
	res = walk(out, 0x600100, at(0x100), at(0x300));
	CHECK_INT(res, 2);
	CHECK_INT(out[1], 0x600200);
	CHECK_INT(out[2], 0);

	/* PLT with (pc & 15) < 11: cfa = rsp + 8 */
	stack1();
	put(0x100, 0x401050);
	put(0x108, at(0x200));
	put(0x110, 0x401120);
	res = walk(out, 0x401205, at(0x100), 0);
	CHECK_INT(DT_USTACK_NFRAMES(res), 9);
	CHECK_INT(out[2], 0x401120);
	CHECK_INT(out[8], 0x401405);

	/* no tables for the process: frame pointers only, and the flag */
	have_proc = 0;
	stack2();
	res = walk(out, 0x401000, at(0x100), at(0x300));
	CHECK_INT(res, DT_USTACK_NOPROC | 3);
	CHECK_INT(out[1], 0x401a00);
	CHECK_INT(out[2], 0x702345);
	CHECK_INT(out[3], 0);
	CHECK_INT(req(pid), 1); /* counted under its tgid: the consumer loads its tables */
	res = walk(out, 0x401000, at(0x100), at(0x300));
	CHECK_INT(req(pid), 2);
	have_proc = 1;
}

/*
 * The kernel's time for the program, ns a run (BPF_STATS_RUN_TIME, as
 * bpftool prog shows it), over 10,000 runs of the last scenario loaded;
 * 0 if it cannot tell
 */
static uint64_t kernel_time(void)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	int stats;

	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	if ((stats = (int)syscall(__NR_bpf, BPF_ENABLE_STATS, &attr, sizeof(attr))) < 0)
		return 0;
	for (int i = 0; i < 10000; i++)
		ks_prog_run(progfd);
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)progfd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) != 0 ||
	    info.run_cnt == 0)
		info.run_time_ns = 0;
	close(stats);
	return info.run_cnt != 0 ? info.run_time_ns / info.run_cnt : 0;
}

static u64 kernel_walk(u64 *out, u64 pc, u64 sp, u64 bp)
{
	u64 val[4 + NFR];
	u32 key = 0, pid = (u32)getpid();

	for (u32 i = 0; i < NROWS; i++)
		CHECK_INT(ks_map_update(kfd[0], &i, &rows[i], BPF_ANY), 0);
	if (have_proc)
		CHECK_INT(ks_map_update(kfd[1], &pid, &proc, BPF_ANY), 0);
	else
		ks_map_delete(kfd[1], &pid);
	memset(val, 0xee, sizeof(val));
	val[1 + NFR] = pc;
	val[2 + NFR] = sp;
	val[3 + NFR] = bp;
	CHECK_INT(ks_map_update(outfd, &key, val, BPF_ANY), 0);
	CHECK_INT(ks_prog_run(progfd), 0);
	memset(val, 0, sizeof(val));
	CHECK_INT(ks_map_lookup(outfd, &key, val), 0);
	memcpy(out, val + 1, NFR * 8);
	return val[0];
}

static u64 kernel_req(u32 key)
{
	u64 v = 0;

	return ks_map_lookup(kfd[2], &key, &v) == 0 ? v : 0;
}

int main(void)
{
	int err;

	test_find_map();
	test_compiled();
	tables();
	scenarios(host_walk, host_req, "host");
	/* counting without storing (ustackdepth): the same frames, up to n */
	stack1();
	CHECK_INT(dt_ustack(NULL, NFR, 0x40120b, at(0x100), 0), 9);
	CHECK_INT(dt_ustack(NULL, 4, 0x40120b, at(0x100), 0), 4);
	CHECK_INT(dt_ustack(NULL, NFR, 0, at(0x100), 0), 0); /* no user state */

	err = kernel_load();
	if (err == -EPERM || err == -EACCES) {
		printf("the kernel's walk skipped: no BPF here (%d)\n", err);
	} else {
		CHECK_INT(err, 0);
		if (err == 0) {
			u64 out[NFR];

			printf("verifier: %u instructions processed\n", verified);
			scenarios(kernel_walk, kernel_req, "kernel");
			stack1();
			kernel_walk(out, 0x40120b, at(0x100), 0);
			printf("a run of the 9-frame walk: %llu ns\n",
			       (unsigned long long)kernel_time());
		}
	}
	if (progfd >= 0)
		close(progfd);
	for (int i = 0; i < 3; i++)
		if (kfd[i] >= 0)
			close(kfd[i]);
	if (outfd >= 0)
		close(outfd);
	return CHECK_DONE();
}
