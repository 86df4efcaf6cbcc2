/*
 * The kernel shim against the real kernel: a BPF program built with the
 * shim's instruction macros, loaded, attached to a USDT probe (a libusdt
 * provider in this very process) with its semaphore's ref_ctr, counting
 * hits and summing an argument read from pt_regs by register name; map
 * elements, whole maps read in batches (and one key at a time where the
 * kernel has no batches), the CPU count, kernel BTF offsets checked
 * against libbpf's own reading, programs bound to BTF types (tp_btf on
 * sched_switch; fentry where the kernel allows), fbt's probes as BTF
 * describes them, and the output buffers read back from a program run in
 * place.
 *
 * Exit status 77 (skipped) when the machine cannot trace, except with
 * CI=true, where that is a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "../unit/check.h"
#include "dt_impl.h"
#include "dt_provider.h"
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

/* ---------------------------------------------------------------- maps */

static void test_map_elems(void)
{
	int fd = ks_map_create(BPF_MAP_TYPE_HASH, "kst_elems", 4, 8, 256, 0);
	uint32_t k = 7, next = 0;
	uint64_t v = 0, w = 0;
	uint8_t seen[100] = { 0 };
	int n = 0, err;

	CHECK(fd >= 0);
	CHECK_INT(ks_map_lookup(fd, &k, &v), -ENOENT);
	CHECK_INT(ks_map_delete(fd, &k), -ENOENT);
	v = 42;
	CHECK_INT(ks_map_update(fd, &k, &v, BPF_EXIST), -ENOENT);
	CHECK_INT(ks_map_update(fd, &k, &v, BPF_NOEXIST), 0);
	CHECK_INT(ks_map_update(fd, &k, &v, BPF_NOEXIST), -EEXIST);
	CHECK_INT(ks_map_lookup(fd, &k, &w), 0);
	CHECK_INT(w, 42);
	v = 43;
	CHECK_INT(ks_map_update(fd, &k, &v, BPF_EXIST), 0);
	CHECK_INT(ks_map_lookup(fd, &k, &w), 0);
	CHECK_INT(w, 43);
	CHECK_INT(bpf_map_lookup_elem(fd, &k, &w), 0); /* libbpf sees what we wrote */
	CHECK_INT(w, 43);
	CHECK_INT(ks_map_delete(fd, &k), 0);
	CHECK_INT(ks_map_lookup(fd, &k, &w), -ENOENT);

	/* next_key walks every key once, then -ENOENT */
	CHECK_INT(ks_map_next_key(fd, NULL, &next), -ENOENT); /* empty */
	for (k = 0; k < 100; k++) {
		v = k * 3;
		CHECK_INT(ks_map_update(fd, &k, &v, BPF_ANY), 0);
	}
	for (err = ks_map_next_key(fd, NULL, &next); err == 0;
	     err = ks_map_next_key(fd, &k, &next)) {
		if (next < 100 && seen[next]++ == 0)
			n++;
		k = next;
	}
	CHECK_INT(err, -ENOENT);
	CHECK_INT(n, 100);
	for (k = 0; k < 100; k++)
		if (seen[k] != 1)
			CHECK_INT(seen[k], 1);
	close(fd);
	CHECK(ks_map_lookup(fd, &k, &w) == -EBADF);
}

/*
 * Read a map of n keys (u32 key -> value (key * 3 + 1) as vsz bytes) in
 * batches of at most per; each key once, its value right.
 */
static void check_batches(int fd, uint32_t n, uint32_t vsz, uint32_t per, uint64_t (*val)(uint32_t))
{
	uint32_t *keys = calloc(per, 4);
	uint8_t *vals = calloc(per, vsz), *seen = calloc(n, 1);
	ks_map_batch_t mb;
	int got, total = 0, calls = 0, bad = 0;

	ks_map_batch_init(&mb, fd, 4, vsz);
	CHECK(!ks_map_batch_done(&mb));
	while ((got = ks_map_lookup_batch(&mb, keys, vals, per)) > 0) {
		calls++;
		CHECK(got <= (int)per);
		for (int i = 0; i < got; i++) {
			uint64_t v = 0;

			memcpy(&v, vals + (size_t)i * vsz, vsz < 8 ? vsz : 8);
			if (keys[i] >= n || seen[keys[i]]++ != 0 || v != val(keys[i]))
				bad++;
			total++;
		}
	}
	CHECK_INT(got, 0);
	CHECK(ks_map_batch_done(&mb));
	CHECK_INT(bad, 0);
	CHECK_INT(total, n);
	CHECK(calls >= (int)((n + per - 1) / per)); /* it did take batches of at most per */
	CHECK_INT(ks_map_lookup_batch(&mb, keys, vals, per), 0); /* done stays done */
	ks_map_batch_fini(&mb);
	ks_map_batch_fini(NULL);
	free(keys);
	free(vals);
	free(seen);
}

static uint64_t three_k_1(uint32_t k)
{
	return (uint64_t)k * 3 + 1;
}

/*
 * ks_map_iter: the map of n keys (u32 key -> u64 key * 3 + 1) read as one
 * stream, through a buffer of 100 bytes (records of 12 split across
 * reads): each key once, its value right; and a program whose keys are
 * wider than the map's refused when it is bound to the map.
 */
static void check_iter(int fd, uint32_t n)
{
	ks_btf_t *b = NULL;
	uint8_t buf[100 + 12], *seen = calloc(n, 1);
	size_t have = 0;
	int id, prog, wide, it, total = 0, bad = 0;
	ssize_t got;

	CHECK_INT(ks_btf_open(&b), 0);
	id = ks_btf_id(b, "bpf_iter_bpf_map_elem", BTF_KIND_FUNC);
	CHECK(id > 0);
	prog = ks_map_iter_prog((uint32_t)id, 4, 8);
	CHECK(prog >= 0);
	CHECK_INT(ks_map_iter_prog((uint32_t)id, 0, 8), -EINVAL);
	it = ks_map_iter_open(prog, fd);
	CHECK(it >= 0);
	while ((got = read(it, buf + have, 100)) > 0) {
		size_t e = 0;

		have += (size_t)got;
		for (; e + 12 <= have; e += 12) {
			uint32_t k;
			uint64_t v;

			memcpy(&k, buf + e, 4);
			memcpy(&v, buf + e + 4, 8);
			if (k >= n || seen[k]++ != 0 || v != three_k_1(k))
				bad++;
			total++;
		}
		memmove(buf, buf + e, have - e);
		have -= e;
	}
	CHECK_INT((int)got, 0);
	CHECK_INT((int)have, 0);
	CHECK_INT(bad, 0);
	CHECK_INT(total, (int)n);
	close(it);
	wide = ks_map_iter_prog((uint32_t)id, 8, 8); /* reads 8 bytes of a 4-byte key */
	CHECK(wide >= 0);
	CHECK(ks_map_iter_open(wide, fd) < 0);
	close(wide);
	close(prog);
	ks_btf_close(b);
	free(seen);
}

static uint64_t lo_ifindex(uint32_t k)
{
	(void)k;
	return 1;
}

static void test_map_batches(void)
{
	enum { NKEYS = 1000 };
	int fd = ks_map_create(BPF_MAP_TYPE_HASH, "kst_batch", 4, 8, NKEYS, 0), dm;
	ks_map_batch_t mb;
	uint64_t v;

	CHECK(fd >= 0);
	/* empty: nothing, at once */
	ks_map_batch_init(&mb, fd, 4, 8);
	CHECK_INT(ks_map_lookup_batch(&mb, &(uint32_t){ 0 }, &v, 1), 0);
	ks_map_batch_fini(&mb);
	for (uint32_t k = 0; k < NKEYS; k++) {
		v = three_k_1(k);
		CHECK_INT(ks_map_update(fd, &k, &v, BPF_NOEXIST), 0);
	}
	check_batches(fd, NKEYS, 8, 64, three_k_1);
	check_batches(fd, NKEYS, 8, 4096, three_k_1);
	check_iter(fd, NKEYS);
	close(fd);

	/*
	 * A device map has no batched reads (the kernel says ENOTSUPP): the
	 * same calls read it one key at a time.  Each entry sends to lo.
	 */
	dm = ks_map_create(BPF_MAP_TYPE_DEVMAP_HASH, "kst_devmap", 4, 4, 64, 0);
	CHECK(dm >= 0);
	{
		uint32_t k = 0, lo = 1, cnt = 4;
		uint64_t tok;
		uint8_t kb[16], vb[16];
		LIBBPF_OPTS(bpf_map_batch_opts, o);

		for (k = 0; k < 40; k++)
			CHECK_INT(ks_map_update(dm, &k, &lo, BPF_ANY), 0);
		/* the premise: libbpf's batch is refused here */
		CHECK(bpf_map_lookup_batch(dm, NULL, &tok, kb, vb, &cnt, &o) < 0 &&
		      errno != ENOENT);
	}
	check_batches(dm, 40, 4, 16, lo_ifindex);
	close(dm);
}

/* The CPUs in /sys/devices/system/cpu/possible ("0-3", "0,2-5"). */
static int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	char buf[256], *p = buf;
	int n = 0;

	if (f == NULL || fgets(buf, sizeof(buf), f) == NULL) {
		if (f != NULL)
			fclose(f);
		return -1;
	}
	fclose(f);
	while (*p != '\0' && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* ---------------------------------------------------------------- BTF */

/* A direct member's offset and bit-field-ness, read with libbpf: the oracle. */
static int lb_member(const struct btf *btf, const char *sname, const char *mname, bool *bitfield)
{
	int id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	const struct btf_member *m = t != NULL ? btf_members(t) : NULL;

	for (uint32_t i = 0; t != NULL && i < btf_vlen(t); i++, m++)
		if (strcmp(btf__name_by_offset(btf, m->name_off), mname) == 0) {
			if (bitfield != NULL)
				*bitfield = btf_member_bitfield_size(t, i) != 0;
			return (int)(btf_member_bit_offset(t, i) / 8);
		}
	return -1;
}

static int64_t lb_enum(const struct btf *btf, const char *ename, const char *name)
{
	int id = btf__find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;

	for (uint32_t i = 0; t != NULL && i < btf_vlen(t); i++)
		if (strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), name) == 0)
			return btf_enum(t)[i].val;
	return -1;
}

static void test_btf(void)
{
	struct btf *lb = btf__load_vmlinux_btf();
	ks_btf_t *b = NULL;
	int64_t pgid = -1, sid = -1;
	int tgid, se, sum, pids, comm, numbers, off, mm_size;
	bool bf = false;

	CHECK(lb != NULL);
	CHECK_INT(ks_btf_open(&b), 0);
	if (lb == NULL || b == NULL)
		return;
	tgid = lb_member(lb, "task_struct", "tgid", NULL);
	CHECK(tgid > 0);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "tgid"), tgid);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "tgid"), tgid); /* again, remembered */
	se = lb_member(lb, "task_struct", "se", NULL);
	sum = lb_member(lb, "sched_entity", "sum_exec_runtime", NULL);
	CHECK(se >= 0 && sum > 0);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "se.sum_exec_runtime"), se + sum);
	CHECK_INT(ks_btf_member_offset(b, "cred", "euid"), lb_member(lb, "cred", "euid", NULL));
	CHECK_INT(ks_btf_member_offset(b, "cred", "euid.val"), lb_member(lb, "cred", "euid", NULL));

	/* enumerators, and indexes into arrays of pointers and of structs */
	CHECK_INT(ks_btf_enum_value(b, "pid_type", "PIDTYPE_PGID", &pgid), 0);
	CHECK_INT(pgid, lb_enum(lb, "pid_type", "PIDTYPE_PGID"));
	CHECK_INT(ks_btf_enum_value(b, "pid_type", "PIDTYPE_SID", &sid), 0);
	CHECK_INT(sid, lb_enum(lb, "pid_type", "PIDTYPE_SID"));
	CHECK(pgid != sid);
	CHECK_INT(ks_btf_enum_value(b, "pid_type", "PIDTYPE_NONE_SUCH", &sid), -ENOENT);
	CHECK_INT(ks_btf_enum_value(b, "no_such_enum_kst", "X", &sid), -ENOENT);
	pids = lb_member(lb, "signal_struct", "pids", NULL);
	CHECK(pids > 0);
	CHECK_INT(ks_btf_member_offset(b, "signal_struct", "pids[0]"), pids);
	CHECK_INT(ks_btf_member_offset(b, "signal_struct", "pids[2]"), pids + 2 * 8);
	CHECK_INT(ks_btf_member_offset(b, "signal_struct", "pids[99]"), -EINVAL);
	numbers = lb_member(lb, "pid", "numbers", NULL);
	CHECK(numbers > 0);
	CHECK_INT(ks_btf_member_offset(b, "pid", "numbers[0].nr"), numbers);
	CHECK_INT(ks_btf_member_offset(b, "pid", "numbers[1].ns"),
		  numbers + 16 + lb_member(lb, "upid", "ns", NULL)); /* a flexible array */
	comm = lb_member(lb, "task_struct", "comm", NULL);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "comm[15]"), comm + 15);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "comm[16]"), -EINVAL);

	/*
	 * The first names are scanned for, the later through an index made
	 * then (KS_BTF_SCANS): both find what libbpf's scan finds, and a name
	 * scanned for before is found the same once the index is there.
	 */
	{
		static const char *const names[] = {
			"file",		  "inode",
			"dentry",	  "super_block",
			"vm_area_struct", "sk_buff",
			"sock",		  "net_device",
			"page",		  "mount",
			"vfsmount",	  "k_sigaction",
			"sigaction",	  "rq",
			"cfs_rq",	  "bio",
			"request",	  "path",
			"qstr",		  "module",
			"kobject",	  "no_such_struct_kst",
		};
		ks_btf_t *b2 = NULL;

		CHECK_INT(ks_btf_open(&b2), 0);
		for (int pass = 0; b2 != NULL && pass < 2; pass++)
			for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
				int want = btf__find_by_name_kind(lb, names[i], BTF_KIND_STRUCT);

				CHECK_INT(ks_btf_find(b2, names[i], KS_BTF_STRUCT),
					  want > 0 ? want : -ENOENT);
			}
		CHECK_INT(ks_btf_member_offset(b2, "task_struct", "tgid"), tgid);
		ks_btf_close(b2);
	}

	/* mm_struct keeps arg_start in an anonymous struct: libbpf's top level misses it */
	CHECK_INT(lb_member(lb, "mm_struct", "arg_start", NULL), -1);
	off = ks_btf_member_offset(b, "mm_struct", "arg_start");
	mm_size = (int)btf__resolve_size(
	    lb, (uint32_t)btf__find_by_name_kind(lb, "mm_struct", BTF_KIND_STRUCT));
	CHECK(off > 0 && off < mm_size);
	CHECK_INT(ks_btf_member_offset(b, "mm_struct", "arg_end"), off + 8);

	/* what a path cannot say */
	CHECK_INT(ks_btf_member_offset(b, "no_such_struct_kst", "x"), -ENOENT);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "no_such_member"), -ENOENT);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "cred.euid"), -EINVAL); /* a pointer */
	CHECK_INT(ks_btf_member_offset(b, "task_struct", ""), -EINVAL);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "tgid."), -EINVAL);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "tgid[0]"), -EINVAL);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "comm[-1]"), -EINVAL);
	CHECK_INT(ks_btf_member_offset(b, "task_struct", "comm[1"), -EINVAL);
	if (lb_member(lb, "task_struct", "sched_reset_on_fork", &bf) >= 0 && bf)
		CHECK_INT(ks_btf_member_offset(b, "task_struct", "sched_reset_on_fork"), -EINVAL);
	ks_btf_close(b);
	ks_btf_close(NULL);
	btf__free(lb);
}

/* ---------------------------------------------------------------- BTF-bound programs */

static int count_funcs(void *arg, const char *name, uint32_t id)
{
	int *found = arg;

	found[0]++;
	if (strcmp(name, "vfs_read") == 0)
		found[1] = (int)id;
	return 0;
}

/*
 * tp_btf on sched_switch: ctx is its arguments (preempt, prev, next,
 * prev_state), 8 bytes each.  The program counts switches and adds 1
 * when prev is the current task (it always is): both must move.
 */
static void test_tracing(char *log, size_t loglen)
{
	const ks_features_t *kf = ks_features_tracing();
	struct btf *lb = btf__load_vmlinux_btf();
	ks_btf_t *b = NULL;
	ks_code_t c = { 0 }, bad = { 0 };
	char *types[12] = { 0 }, *ret = NULL;
	int found[2] = { 0, 0 }, id, map_fd, fd, link;

	CHECK(lb != NULL);
	CHECK_INT(ks_btf_open(&b), 0);
	if (lb == NULL || b == NULL)
		return;
	id = ks_btf_id(b, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	CHECK(id > 0);
	CHECK_INT(id, btf__find_by_name_kind(lb, "btf_trace_sched_switch", BTF_KIND_TYPEDEF));
	CHECK_INT(ks_btf_id(b, "btf_trace_no_such_tp_kst", BTF_KIND_TYPEDEF), -ENOENT);
	CHECK_INT(ks_btf_id(b, "vfs_read", BTF_KIND_FUNC),
		  btf__find_by_name_kind(lb, "vfs_read", BTF_KIND_FUNC));

	/* every FUNC, and vfs_read's arguments written as C */
	CHECK_INT(ks_btf_funcs(b, count_funcs, found), 0);
	CHECK(found[0] > 1000);
	CHECK_INT(found[1], ks_btf_id(b, "vfs_read", BTF_KIND_FUNC));
	CHECK_INT(ks_btf_func_args(b, (uint32_t)found[1], types, 12, &ret), 4);
	CHECK_STR(types[0], "struct file *");
	CHECK_STR(types[1], "char *");
	CHECK_STR(types[2], "size_t");
	CHECK_STR(types[3], "loff_t *");
	CHECK_STR(ret, "ssize_t");
	for (int i = 0; i < 4; i++)
		free(types[i]);
	free(ret);
	CHECK_INT(ks_btf_func_args(b, (uint32_t)found[1], types, 3, NULL), -E2BIG);
	CHECK_INT(ks_btf_func_args(b, (uint32_t)id, types, 12, NULL), -EINVAL); /* a typedef */
	CHECK_INT(
	    ks_btf_func_args(b, (uint32_t)ks_btf_id(b, "_printk", BTF_KIND_FUNC), types, 12, NULL),
	    -EINVAL); /* variadic */

	CHECK(kf->kf_tp_btf);
	CHECK_INT(kf->kf_tp_btf_err, 0);
	/* fentry: works, or says which step failed and why (EPERM on the machines we know) */
	CHECK(kf->kf_fentry ? kf->kf_fentry_err == 0 && kf->kf_fentry_step == NULL
			    : kf->kf_fentry_err > 0 && kf->kf_fentry_step != NULL);
	fprintf(stderr, "features: tp_btf %d fentry %d (%s%s%s)\n", kf->kf_tp_btf, kf->kf_fentry,
		kf->kf_fentry_step ? kf->kf_fentry_step : "", kf->kf_fentry_step ? ": " : "",
		kf->kf_fentry_step ? strerror(kf->kf_fentry_err) : "works");

	/* two counters: switches, and switches whose prev is the current task */
	map_fd = ks_map_create(BPF_MAP_TYPE_ARRAY, "kst_sw", 4, 16, 1, 0);
	CHECK(map_fd >= 0);
	{
		const struct bpf_insn insns[] = {
			KS_MOV64_REG(BPF_REG_6, BPF_REG_1),
			KS_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
			KS_LD_MAP_FD(BPF_REG_1, map_fd),
			KS_MOV64_REG(BPF_REG_2, BPF_REG_10),
			KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
			KS_CALL(BPF_FUNC_map_lookup_elem),
			KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 8),
			KS_MOV64_REG(BPF_REG_7, BPF_REG_0),
			KS_MOV64_IMM(BPF_REG_1, 1),
			KS_ATOMIC_ADD64(BPF_REG_7, BPF_REG_1, 0),
			KS_CALL(BPF_FUNC_get_current_task),
			KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 8), /* prev */
			KS_JMP_REG(BPF_JNE, BPF_REG_0, BPF_REG_1, 2),
			KS_MOV64_IMM(BPF_REG_1, 1),
			KS_ATOMIC_ADD64(BPF_REG_7, BPF_REG_1, 8),
			KS_MOV64_IMM(BPF_REG_0, 0),
			KS_EXIT(),
		};

		ks_emit(&c, insns, sizeof(insns) / sizeof(insns[0]));
	}
	fd = ks_prog_load_btf(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, (uint32_t)id, "kst_tpbtf",
			      &c, log, loglen);
	if (fd < 0)
		fprintf(stderr, "tp_btf load: %s\n%s\n", strerror(-fd), log);
	CHECK(fd >= 0);
	link = fd >= 0 ? ks_attach_btf(fd) : -EBADF;
	CHECK(link >= 0);
	if (link >= 0) {
		uint64_t v[2] = { 0, 0 };
		uint32_t key = 0;

		for (int i = 0; i < 20; i++)
			usleep(1000); /* each sleep switches away */
		close(link);
		CHECK_INT(ks_map_lookup(map_fd, &key, v), 0);
		CHECK(v[0] >= 20);
		CHECK_INT(v[1], v[0]);
	}
	if (fd >= 0)
		close(fd);
	/* the fifth argument is not there: the verifier says so */
	{
		const struct bpf_insn insns[] = { KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 32),
						  KS_MOV64_IMM(BPF_REG_0, 0), KS_EXIT() };

		ks_emit(&bad, insns, 3);
		CHECK(ks_prog_load_btf(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, (uint32_t)id,
				       "kst_tpbad", &bad, log, loglen) == -EACCES);
		CHECK(log[0] != '\0');
	}
	close(map_fd);
	ks_code_free(&c);
	ks_code_free(&bad);
	ks_btf_close(b);
	btf__free(lb);
}

/* ---------------------------------------------------------------- fbt's probes */

static void expect_on(dtrace_hdl_t *dtp, const char *src, const char *tag)
{
	dtrace_prog_t *pgp = dtrace_program_strcompile(dtp, src, "t.d", 0, 0, NULL);
	const dtrace_diag_t *dg;

	if (tag == NULL) {
		if (pgp == NULL)
			fprintf(stderr, "  %s: %s\n", src, dtrace_errmsg(dtp, dtrace_errno(dtp)));
		CHECK(pgp != NULL);
		return;
	}
	CHECK(pgp == NULL);
	dg = dtrace_lastdiag(dtp);
	CHECK(dg != NULL);
	if (dg != NULL)
		CHECK_STR(dg->dtdg_tag, tag);
}

/* probe p of the table, by its four names, or -1 */
static long find_probe(dtrace_hdl_t *dtp, const char *func, const char *name)
{
	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		if (strcmp(dtp->dt_probes[i].dtpd_provider, "fbt") == 0 &&
		    strcmp(dtp->dt_probes[i].dtpd_mod, "vmlinux") == 0 &&
		    strcmp(dtp->dt_probes[i].dtpd_func, func) == 0 &&
		    strcmp(dtp->dt_probes[i].dtpd_name, name) == 0)
			return (long)i;
	return -1;
}

static size_t count_fbt(dtrace_hdl_t *dtp)
{
	size_t n = 0;

	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		n += dtp->dt_pinfo[i].pi_prov == &dt_prov_fbt;
	return n;
}

/*
 * fbt's probes from vmlinux BTF, made whether or not this kernel lets
 * fentry load (dtrace lists them only where it does): the argument types
 * dtrace -l -v would show, and the functions left out.
 */
static void test_fbt_listing(void)
{
	dtrace_hdl_t *dtp;
	dtrace_probedesc_t pd;
	dtrace_probeinfo_t info;
	const dt_pinfo_t *pi;
	long e, r;
	size_t n;

	dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "fbt::vfs_rea?:entry", &pd), 0);
	CHECK_INT(dt_prov_fbt_list(dtp, &pd), 0);
	e = find_probe(dtp, "vfs_read", "entry");
	r = find_probe(dtp, "vfs_read", "return");
	CHECK(e >= 0 && r == e + 1); /* both, whichever the description names */
	if (e < 0 || r < 0) {
		dtrace_close(dtp);
		return;
	}
	pi = &dtp->dt_pinfo[e];
	CHECK_INT(pi->pi_kind, DT_PK_FBT_ENTRY);
	CHECK(pi->pi_btf_id > 0);
	CHECK_INT(pi->pi_nargs, 4);
	CHECK_INT(pi->pi_ctxargs, 4);
	CHECK_STR(pi->pi_args[0].native, "struct file *");
	CHECK_STR(pi->pi_args[2].native, "size_t");
	pi = &dtp->dt_pinfo[r];
	CHECK_INT(pi->pi_kind, DT_PK_FBT_RETURN);
	CHECK_INT(pi->pi_nargs, 2);
	CHECK_STR(pi->pi_args[0].native, "int");
	CHECK_STR(pi->pi_args[1].native, "ssize_t");
	CHECK_INT(pi->pi_btf_id, dtp->dt_pinfo[e].pi_btf_id);
	/* what dtrace -l -v prints of them */
	CHECK_INT(dtrace_probe_info(dtp, &dtp->dt_probes[e], &info), 0);
	CHECK_INT(info.dtp_argc, 4);
	CHECK_STR(info.dtp_argv[3], "loff_t *");
	CHECK_STR(dtrace_stability_name(info.dtp_attr.dtat_name), "Private"); /* the function */
	CHECK_STR(dtrace_class_name(info.dtp_arga.dtat_class), "ISA");
	/* again: nothing new */
	n = count_fbt(dtp);
	CHECK_INT(dt_prov_fbt_list(dtp, &pd), 0);
	CHECK_INT(count_fbt(dtp), n);
	/* a void function's return has args[0] only; a variadic one is left out */
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "fbt::kfree:", &pd), 0);
	CHECK_INT(dt_prov_fbt_list(dtp, &pd), 0);
	r = find_probe(dtp, "kfree", "return");
	CHECK(r >= 0);
	if (r >= 0)
		CHECK_INT(dtp->dt_pinfo[r].pi_nargs, 1);
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "fbt::_printk:", &pd), 0);
	CHECK_INT(dt_prov_fbt_list(dtp, &pd), 0);
	CHECK_INT(find_probe(dtp, "_printk", "entry"), -1);
	/*
	 * the checker types args[] from them: struct file * is the kernel's
	 * struct (BTF), its members read from kernel memory; loff_t * the
	 * kernel's typedef
	 */
	expect_on(dtp, "fbt::vfs_read:entry { x = args[2] + 1; y = args[0]; }", NULL);
	expect_on(dtp, "fbt::vfs_read:entry { x = args[0]->f_flags; }", NULL);
	expect_on(dtp, "fbt::vfs_read:entry { x = args[0]->f_nosuch; }", "D_TYPE_MEMBER");
	expect_on(dtp, "fbt::vfs_read:entry { x = *args[3]; }", NULL);
	expect_on(dtp, "fbt::vfs_read:return { x = args[1]; y = args[2]; }", "D_ARGS_IDX");
	dtrace_close(dtp);
}

/* ---------------------------------------------------------------- output buffers */

#define MAGIC 0x6b7368696d2121ULL

typedef struct got {
	int samples, bad, cpu_bad, cpu;
	uint64_t last, lost;
} got_t;

static void on_sample(void *ctx, int cpu, void *data, uint32_t size)
{
	got_t *g = ctx;
	uint64_t rec[2];

	g->samples++;
	if (cpu != g->cpu)
		g->cpu_bad++;
	if (size < sizeof(rec)) {
		g->bad++;
		return;
	}
	memcpy(rec, data, sizeof(rec));
	if (rec[0] != MAGIC || rec[1] <= g->last) /* in order, each once */
		g->bad++;
	g->last = rec[1];
}

static void on_lost(void *ctx, int cpu, uint64_t n)
{
	got_t *g = ctx;

	if (cpu != g->cpu)
		g->cpu_bad++;
	g->lost += n;
}

/*
 * count[0] += 1, then output { MAGIC, count[0] } to this CPU's buffer:
 * a raw tracepoint program, run in place.
 */
static int output_program(int count_fd, int events_fd, char *log, size_t loglen)
{
	const struct bpf_insn insns[] = {
		KS_MOV64_REG(BPF_REG_6, BPF_REG_1), /* the context */
		KS_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		KS_MOV64_REG(BPF_REG_2, BPF_REG_10),
		KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		KS_LD_MAP_FD(BPF_REG_1, count_fd),
		KS_CALL(BPF_FUNC_map_lookup_elem),
		KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 14),
		KS_LDX_MEM(BPF_DW, BPF_REG_7, BPF_REG_0, 0),
		KS_ALU64_IMM(BPF_ADD, BPF_REG_7, 1),
		KS_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_7, 0),
		KS_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_7, -16),
		KS_LD_IMM64(BPF_REG_8, MAGIC),
		KS_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_8, -24),
		KS_MOV64_REG(BPF_REG_1, BPF_REG_6),
		KS_LD_MAP_FD(BPF_REG_2, events_fd),
		KS_LD_IMM64(BPF_REG_3, 0xffffffffULL), /* BPF_F_CURRENT_CPU */
		KS_MOV64_REG(BPF_REG_4, BPF_REG_10),
		KS_ALU64_IMM(BPF_ADD, BPF_REG_4, -24),
		KS_MOV64_IMM(BPF_REG_5, 16),
		KS_CALL(BPF_FUNC_perf_event_output),
		KS_MOV64_IMM(BPF_REG_0, 0),
		KS_EXIT(),
	};
	ks_code_t c = { 0 };
	int fd;

	ks_emit(&c, insns, sizeof(insns) / sizeof(insns[0]));
	fd = ks_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "kst_output", &c, log, loglen);
	if (fd < 0)
		fprintf(stderr, "load: %s\n%s\n", strerror(-fd), log);
	ks_code_free(&c);
	return fd;
}

static void test_perfbuf(char *log, size_t loglen)
{
	enum { FILL = 1000 };
	int ncpus = ks_ncpus(), cpu = sched_getcpu(), count_fd, events_fd, fd, hash;
	ks_perfbuf_t *pb = (ks_perfbuf_t *)&pb;
	got_t g = { 0 };
	cpu_set_t one, old;
	struct pollfd p;

	CHECK(ncpus > 0 && cpu >= 0);
	/* one CPU: every record goes to one buffer, in order */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	CHECK_INT(sched_getaffinity(0, sizeof(old), &old), 0);
	CHECK_INT(sched_setaffinity(0, sizeof(one), &one), 0);
	g.cpu = cpu;
	count_fd = ks_map_create(BPF_MAP_TYPE_ARRAY, "kst_seq", 4, 8, 1, 0);
	events_fd =
	    ks_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "kst_events", 4, 4, (uint32_t)ncpus, 0);
	CHECK(count_fd >= 0 && events_fd >= 0);

	/* bad arguments: a code and no buffer */
	CHECK_INT(ks_perfbuf_create(events_fd, 1, NULL, NULL, &g, &pb), -EINVAL);
	CHECK(pb == NULL);
	CHECK_INT(ks_perfbuf_create(events_fd, 3, on_sample, NULL, &g, &pb), -EINVAL);
	hash = ks_map_create(BPF_MAP_TYPE_HASH, "kst_nbuf", 4, 4, 4, 0);
	CHECK(ks_perfbuf_create(hash, 1, on_sample, NULL, &g, &pb) < 0);
	CHECK(pb == NULL);
	close(hash);
	ks_perfbuf_free(NULL);

	/* one page per CPU: room for 127 records of 32 bytes */
	CHECK_INT(ks_perfbuf_create(events_fd, 1, on_sample, on_lost, &g, &pb), 0);
	CHECK(pb != NULL);
	fd = output_program(count_fd, events_fd, log, loglen);
	CHECK(fd >= 0);
	if (pb == NULL || fd < 0)
		goto out;
	p = (struct pollfd){ .fd = ks_perfbuf_fd(pb), .events = POLLIN };
	CHECK_INT(poll(&p, 1, 0), 0); /* nothing yet */
	CHECK_INT(ks_prog_run(fd), 0);
	CHECK_INT(poll(&p, 1, 1000), 1);
	CHECK_INT(ks_perfbuf_consume(pb), 0);
	CHECK_INT(g.samples, 1);
	CHECK_INT(g.last, 1);
	CHECK_INT(ks_perfbuf_consume(pb), 0); /* nothing twice */
	CHECK_INT(g.samples, 1);

	/* more than fits: the kernel tells of the lost when a later record fits */
	for (int i = 0; i < FILL; i++)
		ks_prog_run(fd);
	CHECK_INT(ks_perfbuf_consume(pb), 0);
	CHECK(g.samples > 1 && g.samples < FILL);
	CHECK_INT(g.lost, 0);
	CHECK_INT(ks_prog_run(fd), 0);
	CHECK_INT(ks_perfbuf_consume(pb), 0);
	CHECK(g.lost > 0);
	CHECK_INT((uint64_t)g.samples + g.lost, 1 + FILL + 1);
	CHECK_INT(g.last, 1 + FILL + 1);
	CHECK_INT(g.bad, 0);
	CHECK_INT(g.cpu_bad, 0);
	fprintf(stderr, "perfbuf: %d records read, %llu lost\n", g.samples,
		(unsigned long long)g.lost);
out:
	if (fd >= 0)
		close(fd);
	ks_perfbuf_free(pb);
	close(count_fd);
	close(events_fd);
	sched_setaffinity(0, sizeof(old), &old);
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

	test_map_elems();
	test_map_batches();
	CHECK_INT(ks_ncpus(), libbpf_num_possible_cpus());
	CHECK_INT(ks_ncpus(), possible_cpus());
	test_btf();
	test_tracing(log, sizeof(log));
	test_fbt_listing();
	test_perfbuf(log, sizeof(log));

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
