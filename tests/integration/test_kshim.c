/*
 * The kernel shim against the real kernel: a BPF program built with the
 * shim's instruction macros, loaded, attached to a USDT probe (a libusdt
 * provider in this very process) with its semaphore's ref_ctr, counting
 * hits and summing an argument read from pt_regs by register name.
 *
 * Exit status 77 (skipped) when the machine cannot trace, except with
 * CI=true, where that is a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../unit/check.h"
#include "dt_impl.h"
#include "ks.h"
#include "usdt.h"

#define N 1000

typedef struct found {
	const char *name;
	uint64_t pc, sema;
	char operand[128];
} found_t;

static int find_note(const dt_stapsdt_note_t *n, void *arg)
{
	found_t *f = arg;

	if (strcmp(n->sn_name, f->name) == 0) {
		f->pc = n->sn_pc;
		f->sema = n->sn_sema;
		snprintf(f->operand, sizeof(f->operand), "%s", n->sn_args[0].sa_operand);
	}
	return 0;
}

/*
 * count[0] += 1; count[1] += the probe's argument 0, read from pt_regs at
 * regoff: an array map of two u64 values.
 */
/*
 * Counts hits in slot 0 and sums arg0 in slot 1; with_cookie adds the
 * link's cookie for that site to each arg0 (uprobe_multi links carry them).
 */
static void counting_program(ks_code_t *c, int map_fd, int regoff, bool with_cookie)
{
	const struct bpf_insn arg0[] = {
		KS_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_1, (int16_t)regoff), /* r6 = arg0 */
	};
	const struct bpf_insn cookie[] = {
		KS_CALL(BPF_FUNC_get_attach_cookie), /* r1 is still the context */
		KS_ALU64_REG(BPF_ADD, BPF_REG_6, BPF_REG_0),
	};
	const struct bpf_insn count[] = {
		KS_ST_MEM(BPF_W, BPF_REG_10, -4, 0), /* key 0 */
		KS_MOV64_REG(BPF_REG_2, BPF_REG_10),
		KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		KS_LD_MAP_FD(BPF_REG_1, map_fd),
		KS_CALL(BPF_FUNC_map_lookup_elem),
		KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
		KS_MOV64_IMM(BPF_REG_1, 1),
		KS_ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0),
		KS_ST_MEM(BPF_W, BPF_REG_10, -4, 1), /* key 1 */
		KS_MOV64_REG(BPF_REG_2, BPF_REG_10),
		KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		KS_LD_MAP_FD(BPF_REG_1, map_fd),
		KS_CALL(BPF_FUNC_map_lookup_elem),
		KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		KS_ATOMIC_ADD64(BPF_REG_0, BPF_REG_6, 0),
		KS_MOV64_IMM(BPF_REG_0, 0),
		KS_EXIT(),
	};

	ks_emit(c, arg0, 1);
	if (with_cookie)
		ks_emit(c, cookie, 2);
	ks_emit(c, count, sizeof(count) / sizeof(count[0]));
}

static uint64_t map_value(int fd, uint32_t key)
{
	uint64_t v = 0;

	if (bpf_map_lookup_elem(fd, &key, &v) != 0)
		return UINT64_MAX;
	return v;
}

int main(void)
{
	static const usdt_argtype_t one[] = { USDT_ARG_INT32 };
	char dir[] = "/tmp/kshim-XXXXXX", err[256], log[4096];
	const ks_features_t *kf = ks_features();
	found_t f = { "hit", 0, 0, "" };
	ks_code_t code = { 0 }, bad = { 0 };
	usdt_provider_t *prov;
	usdt_probe_t *hit;
	int map_fd, prog_fd, link, regoff, width = 0;

	if (geteuid() != 0) {
		fprintf(stderr, "test_kshim: not root: cannot trace\n");
		return getenv("CI") && strcmp(getenv("CI"), "true") == 0 ? 1 : 77;
	}
	CHECK(kf->kf_uprobe_pmu);
	CHECK(kf->kf_uprobe_refctr);
	CHECK(kf->kf_ringbuf);
	/* register names of USDT specs, every width, pt_regs offsets */
	CHECK_INT(ks_reg_offset("%rdi", &width), 112);
	CHECK_INT(width, 8);
	CHECK_INT(ks_reg_offset("%r9d", &width), 64);
	CHECK_INT(width, 4);
	CHECK_INT(ks_reg_offset("%al", &width), 80);
	CHECK_INT(width, 1);
	CHECK_INT(ks_reg_offset("%r10l", &width), 56); /* gdb's spelling of r10b */
	CHECK_INT(ks_reg_offset("%xmm0", NULL), -1);

	/* a provider of our own, in a private runtime directory */
	if (mkdtemp(dir) == NULL)
		return 1;
	setenv("USDT_RUNTIME_DIR", dir, 1);
	prov = usdt_provider_create("kst", "kshim", NULL, NULL);
	hit = usdt_probe_create(prov, "main", "hit", 1, one);
	CHECK(hit != NULL);
	CHECK_INT(usdt_provider_enable(prov), 0);
	CHECK_INT(dt_stapsdt_file(usdt_provider_path(prov), find_note, &f, err, sizeof(err)), 0);
	CHECK(f.pc != 0 && f.sema != 0);
	regoff = ks_reg_offset(f.operand, NULL);
	CHECK_INT(regoff, 112); /* the first argument is in %edi */

	map_fd = ks_map_create(BPF_MAP_TYPE_ARRAY, "kst_count", 4, 8, 2, 0);
	CHECK(map_fd >= 0);
	counting_program(&code, map_fd, regoff, false);
	prog_fd = ks_prog_load(BPF_PROG_TYPE_KPROBE, 0, "kst_hit", &code, log, sizeof(log));
	if (prog_fd < 0)
		fprintf(stderr, "load: %s\n%s\n", strerror(-prog_fd), log);
	CHECK(prog_fd >= 0);

	/* a program the verifier must refuse, with its reason in the log */
	{
		const struct bpf_insn nope[] = { KS_MOV64_IMM(BPF_REG_0, 0) }; /* no exit */

		ks_emit(&bad, nope, 1);
		CHECK(ks_prog_load(BPF_PROG_TYPE_KPROBE, 0, "kst_bad", &bad, log, sizeof(log)) < 0);
		CHECK(log[0] != '\0');
	}

	/* the semaphore follows the attachment: raised by the kernel, never by us */
	CHECK_INT(usdt_probe_is_enabled(hit), 0);
	link = ks_attach_uprobe(prog_fd, usdt_provider_path(prov), f.pc, f.sema, false, -1);
	if (link < 0)
		fprintf(stderr, "attach: %s\n", strerror(-link));
	CHECK(link >= 0);
	CHECK_INT(usdt_probe_is_enabled(hit), 1);
	for (int i = 0; i < N; i++)
		usdt_probe_fire1(hit, (uint64_t)i);
	CHECK_INT(map_value(map_fd, 0), N);
	CHECK_INT(map_value(map_fd, 1), (uint64_t)N * (N - 1) / 2);
	close(link);
	CHECK_INT(usdt_probe_is_enabled(hit), 0);
	for (int i = 0; i < 10; i++)
		usdt_probe_fire1(hit, 1);
	CHECK_INT(map_value(map_fd, 0), N); /* detached: no more hits */

	/* the same probe through a uprobe_multi link, with a cookie */
	if (kf->kf_uprobe_multi) {
		const uint64_t off = f.pc, ref = f.sema, cookie = 7;
		ks_code_t mc = { 0 };
		int mfd, mlink;

		CHECK(kf->kf_cookie); /* 5.15, older than the uprobe_multi links (6.6) */
		counting_program(&mc, map_fd, regoff, true);
		mfd = ks_prog_load(BPF_PROG_TYPE_KPROBE, KS_UPROBE_MULTI, "kst_multi", &mc, log,
				   sizeof(log));
		CHECK(mfd >= 0);
		mlink = ks_attach_uprobes(mfd, usdt_provider_path(prov), &off, &ref, &cookie, 1,
					  getpid());
		if (mlink < 0)
			fprintf(stderr, "attach multi: %s\n", strerror(-mlink));
		CHECK(mlink >= 0);
		CHECK_INT(usdt_probe_is_enabled(hit), 1);
		for (int i = 0; i < N; i++)
			usdt_probe_fire1(hit, 2);
		CHECK_INT(map_value(map_fd, 0), 2 * N);
		/* each hit added its argument, 2, and the site's cookie, 7 */
		CHECK_INT(map_value(map_fd, 1), (uint64_t)N * (N - 1) / 2 + (2 + cookie) * N);
		ks_detach_all(&mlink, 1);
		CHECK_INT(usdt_probe_is_enabled(hit), 0);
		CHECK_INT(ks_attach_uprobes(mfd, "/nonexistent/file", &off, NULL, NULL, 1, -1),
			  -ENOENT);
		close(mfd);
		ks_code_free(&mc);
	} else {
		/* dtrace falls back to a perf link per site; CI's kernel (6.18) has the links */
		fprintf(stderr, "test_kshim: no uprobe_multi in this kernel\n");
		CHECK(!(getenv("CI") && strcmp(getenv("CI"), "true") == 0));
	}
	fprintf(stderr, "features: ringbuf %d uprobe_multi %d cookie %d\n", kf->kf_ringbuf,
		kf->kf_uprobe_multi, kf->kf_cookie);

	/* a program run in place, in this thread (dtrace's BEGIN and END) */
	{
		const struct bpf_insn own[] = {
			KS_CALL(BPF_FUNC_get_current_pid_tgid),
			KS_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, -8),
			KS_ST_MEM(BPF_W, BPF_REG_10, -12, 0),
			KS_MOV64_REG(BPF_REG_3, BPF_REG_10),
			KS_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
			KS_MOV64_REG(BPF_REG_2, BPF_REG_10),
			KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -12),
			KS_LD_MAP_FD(BPF_REG_1, map_fd),
			KS_MOV64_IMM(BPF_REG_4, BPF_ANY),
			KS_CALL(BPF_FUNC_map_update_elem),
			KS_MOV64_IMM(BPF_REG_0, 0),
			KS_EXIT(),
		};
		ks_code_t rc = { 0 };
		int fd;

		ks_emit(&rc, own, sizeof(own) / sizeof(own[0]));
		fd =
		    ks_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "kst_own", &rc, log, sizeof(log));
		if (fd < 0)
			fprintf(stderr, "load: %s\n%s\n", strerror(-fd), log);
		CHECK(fd >= 0);
		CHECK_INT(ks_prog_run(fd), 0);
		CHECK_INT(map_value(map_fd, 0), (uint64_t)getpid() << 32 | (uint64_t)gettid());
		CHECK(ks_prog_run(prog_fd) < 0); /* a kprobe program cannot run in place */
		close(fd);
		ks_code_free(&rc);
	}

	/* errors are codes, not crashes */
	CHECK_INT(ks_attach_uprobe(prog_fd, "/nonexistent/file", 0x1000, 0, false, -1), -ENOENT);
	CHECK(ks_prog_load(BPF_PROG_TYPE_KPROBE, 0, "empty", &(ks_code_t){ 0 }, NULL, 0) ==
	      -EINVAL);

	close(prog_fd);
	close(map_fd);
	ks_code_free(&code);
	ks_code_free(&bad);
	usdt_provider_destroy(prov);
	rmdir(dir);
	return CHECK_DONE();
}
