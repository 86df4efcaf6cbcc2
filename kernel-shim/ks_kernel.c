/*
 * ks_kernel.c -- building instruction sequences, loading programs,
 * attaching them to uprobes, and probing what the kernel can do.
 *
 * Uprobes are attached through the perf "uprobe" PMU (perf_event_open
 * with the file and offset), which needs no tracefs, with the semaphore's
 * offset in bits 32-63 of the event's config: the kernel's ref_ctr
 * mechanism then raises the semaphore in every process mapping the file
 * while the probe is attached.  The program is bound with a BPF link.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "ks.h"

#define UPROBE_REF_CTR_SHIFT 32 /* PERF_UPROBE_REF_CTR_OFFSET_SHIFT */

void ks_emit(ks_code_t *c, const struct bpf_insn *insns, size_t n)
{
	if (c->kc_oom)
		return;
	if (c->kc_len + n > c->kc_cap) {
		size_t cap = (c->kc_cap ? c->kc_cap * 2 : 256) + n;
		struct bpf_insn *ni = realloc(c->kc_insns, cap * sizeof(*ni));

		if (ni == NULL) {
			c->kc_oom = true;
			return;
		}
		c->kc_insns = ni;
		c->kc_cap = cap;
	}
	memcpy(c->kc_insns + c->kc_len, insns, n * sizeof(*insns));
	c->kc_len += n;
}

void ks_code_free(ks_code_t *c)
{
	if (c == NULL)
		return;
	free(c->kc_insns);
	memset(c, 0, sizeof(*c));
}

/*
 * The subprograms' BTF.  A program that passes a function's address
 * (ld_imm64 BPF_PSEUDO_FUNC: a bpf_loop() callback) must describe each of
 * its functions with BTF func_info, or the verifier refuses it ("missing
 * btf func_info").  The least that passes: an int, a prototype returning
 * it, and one static function of that prototype per subprogram (static:
 * the verifier checks each call in its caller's context, as without
 * BTF).  The global function kc_gfunc, if any, is the one exception: a
 * prototype of two pointers to kc_gsize bytes (an array of char), which
 * the verifier checks once with those arguments and, at a call, only
 * against them.  Returns the BTF's fd and fills *info (its starts,
 * ascending, from 0: a call's or address's target is i + imm + 1), or
 * -errno; no function address and no global function returns -ENOENT:
 * load without BTF.
 */
static int subprog_btf(const ks_code_t *code, struct bpf_func_info **info, uint32_t *n)
{
	/* names at 0 "", 1 int, 5 dtrace, 12 char, 17 a, 19 b, 21 dt_strcmp */
	static const char strs[] = "\0int\0dtrace\0char\0a\0b\0dt_strcmp";
	struct btf_header *h;
	uint32_t *t, *starts, ns = 1, ntypes;
	size_t tlen, size;
	bool addr = code->kc_gfunc != 0;
	char *blob;
	int fd;

	for (size_t i = 0; i < code->kc_len; i++)
		if (code->kc_insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    code->kc_insns[i].src_reg == BPF_PSEUDO_FUNC)
			addr = true;
	if (!addr)
		return -ENOENT;
	if ((starts = calloc(code->kc_len + 1, sizeof(*starts))) == NULL)
		return -ENOMEM;
	starts[0] = 0;
	for (size_t i = 0; i < code->kc_len; i++) {
		const struct bpf_insn *in = &code->kc_insns[i];
		long to;

		if (!((in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL) ||
		      (in->code == (BPF_LD | BPF_DW | BPF_IMM) && in->src_reg == BPF_PSEUDO_FUNC)))
			continue;
		to = (long)i + in->imm + 1;
		if (to <= 0 || (size_t)to >= code->kc_len)
			continue; /* the verifier says what is wrong */
		starts[ns++] = (uint32_t)to;
	}
	/* sort and unique (few functions: insertion sort) */
	for (uint32_t a = 1; a < ns; a++)
		for (uint32_t b = a; b > 0 && starts[b - 1] > starts[b]; b--) {
			uint32_t x = starts[b];

			starts[b] = starts[b - 1];
			starts[b - 1] = x;
		}
	ntypes = 0;
	for (uint32_t a = 0; a < ns; a++)
		if (a == 0 || starts[a] != starts[a - 1])
			starts[ntypes++] = starts[a];
	ns = ntypes;
	/*
	 * [1] int, [2] int (void), [3] char, [4] char[kc_gsize], [5] char (*)[kc_gsize],
	 * [6] int (char (*a)[], char (*b)[]), [7...] one function each
	 */
	tlen = 16 + 12 + 16 + 24 + 12 + 28 + 12 * (size_t)ns;
	size = sizeof(*h) + tlen + sizeof(strs);
	if ((blob = calloc(1, size)) == NULL || (*info = calloc(ns, sizeof(**info))) == NULL) {
		free(blob);
		free(starts);
		return -ENOMEM;
	}
	h = (struct btf_header *)blob;
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_off = 0;
	h->type_len = (uint32_t)tlen;
	h->str_off = (uint32_t)tlen;
	h->str_len = sizeof(strs);
	t = (uint32_t *)(blob + sizeof(*h));
	*t++ = 1; /* [1] "int" */
	*t++ = (uint32_t)BTF_KIND_INT << 24;
	*t++ = 4;
	*t++ = (uint32_t)BTF_INT_SIGNED << 24 | 32;
	*t++ = 0; /* [2] int (void) */
	*t++ = (uint32_t)BTF_KIND_FUNC_PROTO << 24;
	*t++ = 1;
	*t++ = 12; /* [3] "char" */
	*t++ = (uint32_t)BTF_KIND_INT << 24;
	*t++ = 1;
	*t++ = 8;
	*t++ = 0; /* [4] char[kc_gsize] */
	*t++ = (uint32_t)BTF_KIND_ARRAY << 24;
	*t++ = 0;
	*t++ = 3;
	*t++ = 1;
	*t++ = code->kc_gsize > 0 ? code->kc_gsize : 1;
	*t++ = 0; /* [5] char (*)[kc_gsize] */
	*t++ = (uint32_t)BTF_KIND_PTR << 24;
	*t++ = 4;
	*t++ = 0; /* [6] int (a, b) */
	*t++ = (uint32_t)BTF_KIND_FUNC_PROTO << 24 | 2;
	*t++ = 1;
	*t++ = 17;
	*t++ = 5;
	*t++ = 19;
	*t++ = 5;
	for (uint32_t k = 0; k < ns; k++) {
		bool global = code->kc_gfunc != 0 && starts[k] == code->kc_gfunc;

		*t++ = global ? 21 : 5; /* "dt_strcmp", "dtrace" */
		*t++ = (uint32_t)BTF_KIND_FUNC << 24 | (global ? BTF_FUNC_GLOBAL : BTF_FUNC_STATIC);
		*t++ = global ? 6 : 2;
		(*info)[k].insn_off = starts[k];
		(*info)[k].type_id = 7 + k;
	}
	memcpy(blob + sizeof(*h) + tlen, strs, sizeof(strs));
	fd = bpf_btf_load(blob, size, NULL);
	fd = fd < 0 ? -errno : fd;
	free(blob);
	free(starts);
	if (fd < 0) {
		free(*info);
		*info = NULL;
	}
	*n = ns;
	return fd;
}

/* bpf_prog_load, then again with the verifier's log if it failed */
static int prog_load(enum bpf_prog_type type, const char *name, const ks_code_t *code,
		     struct bpf_prog_load_opts opts, char *log, size_t loglen)
{
	int fd, err;

	if (log != NULL && loglen > 0)
		log[0] = '\0';
	/* without a log first: a verbose log of a large program could overflow it */
	fd = bpf_prog_load(type, name, "GPL", code->kc_insns, code->kc_len, &opts);
	if (fd >= 0)
		return fd;
	err = -errno;
	if (log != NULL && loglen > 0) {
		opts.log_buf = log;
		opts.log_size = (uint32_t)loglen;
		opts.log_level = 1;
		fd = bpf_prog_load(type, name, "GPL", code->kc_insns, code->kc_len, &opts);
		if (fd >= 0) /* loaded after all (a transient failure) */
			return fd;
	}
	return err;
}

static int load_code(enum bpf_prog_type type, uint32_t attach_type, uint32_t btf_id,
		     const char *name, const ks_code_t *code, char *log, size_t loglen);

int ks_prog_load(enum bpf_prog_type type, uint32_t attach_type, const char *name,
		 const ks_code_t *code, char *log, size_t loglen)
{
	return ks_prog_load_btf(type, attach_type, 0, name, code, log, loglen);
}

int ks_prog_load_btf(enum bpf_prog_type type, uint32_t attach_type, uint32_t btf_id,
		     const char *name, const ks_code_t *code, char *log, size_t loglen)
{
	int err = ks_fault(KS_OP_PROG_LOAD);

	if (err != 0) {
		if (log != NULL && loglen > 0)
			log[0] = '\0';
		return err;
	}
	return load_code(type, attach_type, btf_id, name, code, log, loglen);
}

static int load_code(enum bpf_prog_type type, uint32_t attach_type, uint32_t btf_id,
		     const char *name, const ks_code_t *code, char *log, size_t loglen)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach_type,
		    .attach_btf_id = btf_id);
	struct bpf_func_info *info = NULL;
	uint32_t ninfo = 0;
	int fd, btf;

	if (code->kc_oom || code->kc_len == 0)
		return -EINVAL;
	btf = subprog_btf(code, &info, &ninfo);
	if (btf == -ENOMEM)
		return btf;
	if (btf >= 0) {
		opts.prog_btf_fd = btf;
		opts.func_info = info;
		opts.func_info_cnt = ninfo;
		opts.func_info_rec_size = sizeof(*info);
	}
	fd = prog_load(type, name, code, opts, log, loglen);
	if (btf >= 0)
		close(btf);
	free(info);
	return fd;
}

int ks_prog_run(int prog_fd)
{
	uint64_t args[12] = { 0 }; /* MAX_BPF_FUNC_ARGS */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	return bpf_prog_test_run_opts(prog_fd, &opts) == 0 ? 0 : -errno;
}

typedef struct detach_work {
	const int *dw_fds;
	size_t dw_n, dw_stride, dw_first;
} detach_work_t;

static void *detach_some(void *arg)
{
	const detach_work_t *w = arg;

	for (size_t i = w->dw_first; i < w->dw_n; i += w->dw_stride)
		close(w->dw_fds[i]);
	return NULL;
}

void ks_detach_all(const int *fds, size_t n)
{
	enum { MAXT = 64 };
	detach_work_t work[MAXT];
	pthread_t tid[MAXT];
	bool started[MAXT] = { false };
	size_t nt = n < MAXT ? n : MAXT;

	for (size_t t = 0; t < nt; t++) {
		work[t] = (detach_work_t){ fds, n, nt, t };
		if (t > 0) /* thread 0 is this one */
			started[t] = pthread_create(&tid[t], NULL, detach_some, &work[t]) == 0;
	}
	for (size_t t = 1; t < nt; t++) /* no thread: this one does its share */
		if (!started[t])
			detach_some(&work[t]);
	if (nt > 0)
		detach_some(&work[0]);
	for (size_t t = 1; t < nt; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}

/* The type number of a dynamic perf PMU ("uprobe"), or -1. */
static int pmu_type(const char *name)
{
	char path[128], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoi(buf);
}

/* The bit of the uprobe PMU's config that makes a return probe. */
static int retprobe_bit(void)
{
	char buf[64];
	ssize_t n;
	int fd = open("/sys/bus/event_source/devices/uprobe/format/retprobe", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strncmp(buf, "config:", 7) == 0 ? atoi(buf + 7) : 0;
}

static int bind_prog(int prog_fd, int pfd, uint64_t cookie);

int ks_attach_uprobe(int prog_fd, const char *path, uint64_t offset, uint64_t ref_ctr_off, bool ret,
		     pid_t pid)
{
	struct perf_event_attr attr;
	int type = pmu_type("uprobe"), pfd = ks_fault(KS_OP_ATTACH);

	if (pfd != 0)
		return pfd;
	if (type < 0)
		return -ENOTSUP;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = offset;
	attr.config = (ret ? 1ULL << retprobe_bit() : 0) | (ref_ctr_off << UPROBE_REF_CTR_SHIFT);
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	/* a probe in every process takes cpu 0, as the kernel requires one of them */
	pfd = (int)syscall(__NR_perf_event_open, &attr, pid > 0 ? pid : -1, pid > 0 ? -1 : 0, -1,
			   PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	return bind_prog(prog_fd, pfd, 0);
}

/*
 * Bind a program to a perf event: a BPF link (with the cookie), or the
 * older ioctl (where the cookie is 0).
 */
static int bind_prog(int prog_fd, int pfd, uint64_t cookie)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .perf_event.bpf_cookie = cookie);
	int lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, &opts);

	if (lfd < 0 && cookie != 0) {
		int e = errno;

		close(pfd);
		return -e;
	}
	if (lfd < 0) {
		if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 ||
		    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			int e = errno;

			close(pfd);
			return -e;
		}
		return pfd;
	}
	close(pfd); /* the link holds the event */
	return lfd;
}

/* BPF_LINK_CREATE's attributes for uprobe_multi, as Linux 6.6 lays them out. */
typedef struct uprobe_multi_attr {
	uint32_t prog_fd, target_fd, attach_type, flags;
	uint64_t path, offsets, ref_ctr_offsets, cookies;
	uint32_t cnt, um_flags, pid, pad;
} uprobe_multi_attr_t;

static int attach_uprobes(int prog_fd, const char *path, const uint64_t *offs, const uint64_t *refs,
			  const uint64_t *cookies, size_t n, pid_t pid, uint32_t flags);

int ks_attach_uprobes(int prog_fd, const char *path, const uint64_t *offs, const uint64_t *refs,
		      const uint64_t *cookies, size_t n, pid_t pid)
{
	int err = ks_fault(KS_OP_ATTACH);

	return err != 0 ? err : attach_uprobes(prog_fd, path, offs, refs, cookies, n, pid, 0);
}

int ks_attach_uretprobes(int prog_fd, const char *path, const uint64_t *offs,
			 const uint64_t *cookies, size_t n, pid_t pid)
{
	int err = ks_fault(KS_OP_ATTACH);

	/* BPF_F_UPROBE_MULTI_RETURN */
	return err != 0 ? err : attach_uprobes(prog_fd, path, offs, NULL, cookies, n, pid, 1);
}

static int attach_uprobes(int prog_fd, const char *path, const uint64_t *offs, const uint64_t *refs,
			  const uint64_t *cookies, size_t n, pid_t pid, uint32_t flags)
{
	uprobe_multi_attr_t a;
	int fd;

	if (n == 0 || n > UINT32_MAX)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.prog_fd = (uint32_t)prog_fd;
	a.attach_type = KS_UPROBE_MULTI;
	a.path = (uint64_t)(uintptr_t)path;
	a.offsets = (uint64_t)(uintptr_t)offs;
	a.ref_ctr_offsets = (uint64_t)(uintptr_t)refs;
	a.cookies = (uint64_t)(uintptr_t)cookies;
	a.cnt = (uint32_t)n;
	a.um_flags = flags;
	a.pid = pid > 0 ? (uint32_t)pid : 0;
	fd = (int)syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

int ks_attach_raw_tp(int prog_fd, const char *name)
{
	int fd = ks_fault(KS_OP_ATTACH);

	if (fd != 0)
		return fd;
	fd = bpf_raw_tracepoint_open(name, prog_fd);

	return fd < 0 ? -errno : fd;
}

int ks_attach_btf(int prog_fd)
{
	int fd = ks_fault(KS_OP_ATTACH);

	if (fd != 0)
		return fd;
	/* a tracing program's target is the one it was loaded for: no name */
	fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	return fd < 0 ? -errno : fd;
}

int ks_attach_timer(int prog_fd, int cpu, uint64_t period_ns, int group, uint64_t cookie)
{
	struct perf_event_attr attr;
	int pfd = ks_fault(KS_OP_ATTACH);

	if (pfd != 0)
		return pfd;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = period_ns; /* the CPU clock counts nanoseconds */
	pfd = (int)syscall(__NR_perf_event_open, &attr, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	return bind_prog(prog_fd, pfd, cookie);
}

/*
 * A group leader that counts nothing (the dummy event), opened disabled.
 * Pinned: a flexible group's timers lost their time whenever another
 * process's perf events changed the CPU's (300 timers beside a loop of
 * short traces: tick-1s 90 ms late, 10 timers a firing off).
 */
int ks_timer_group(int cpu)
{
	struct perf_event_attr attr;
	int pfd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.disabled = 1;
	attr.pinned = 1;
	pfd = (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return pfd < 0 ? -errno : pfd;
}

int ks_timer_group_start(int group)
{
	return ioctl(group, PERF_EVENT_IOC_ENABLE, 0) < 0 ? -errno : 0;
}

/* ks_detach_later's queue and its thread */
static pthread_mutex_t dq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dq_work = PTHREAD_COND_INITIALIZER, dq_done = PTHREAD_COND_INITIALIZER;
static int *dq_fds;
static size_t dq_n, dq_cap;
static bool dq_started, dq_busy;
static uint64_t dq_queued, dq_closed; /* fds handed over, and closed, since the start */

static void *detacher(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&dq_lock);
	for (;;) {
		int *fds;
		size_t n;

		while (dq_n == 0) {
			dq_busy = false;
			pthread_cond_broadcast(&dq_done);
			pthread_cond_wait(&dq_work, &dq_lock);
		}
		fds = dq_fds;
		n = dq_n;
		dq_fds = NULL;
		dq_n = dq_cap = 0;
		dq_busy = true;
		pthread_mutex_unlock(&dq_lock);
		ks_detach_all(fds, n);
		free(fds);
		pthread_mutex_lock(&dq_lock);
		dq_closed += n;
	}
	return NULL;
}

uint64_t ks_detach_later(const int *fds, size_t n)
{
	bool now = false;
	uint64_t seq;

	if (n == 0) {
		pthread_mutex_lock(&dq_lock);
		seq = dq_queued;
		pthread_mutex_unlock(&dq_lock);
		return seq;
	}
	pthread_mutex_lock(&dq_lock);
	if (!dq_started) {
		pthread_attr_t a;
		pthread_t t;

		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		dq_started = pthread_create(&t, &a, detacher, NULL) == 0;
		pthread_attr_destroy(&a);
	}
	if (dq_n + n > dq_cap) {
		size_t cap = (dq_n + n) * 2;
		int *p = realloc(dq_fds, cap * sizeof(int));

		if (p != NULL) {
			dq_fds = p;
			dq_cap = cap;
		}
	}
	if (!dq_started || dq_n + n > dq_cap) {
		now = true; /* no thread or no memory: here and now */
	} else {
		memcpy(dq_fds + dq_n, fds, n * sizeof(int));
		dq_n += n;
		dq_busy = true;
		pthread_cond_signal(&dq_work);
	}
	seq = dq_queued;
	if (!now)
		seq = dq_queued += n;
	pthread_mutex_unlock(&dq_lock);
	if (now)
		ks_detach_all(fds, n);
	return seq;
}

bool ks_detach_done(uint64_t seq)
{
	bool done;

	pthread_mutex_lock(&dq_lock);
	done = dq_closed >= seq;
	pthread_mutex_unlock(&dq_lock);
	return done;
}

void ks_detach_wait(void)
{
	pthread_mutex_lock(&dq_lock);
	while (dq_started && (dq_n > 0 || dq_busy))
		pthread_cond_wait(&dq_done, &dq_lock);
	pthread_mutex_unlock(&dq_lock);
}

static ks_features_t features;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

/* Does a program of this type and attach type, calling helper (or none), load? */
static int probe_prog(enum bpf_prog_type type, uint32_t attach_type, int helper)
{
	ks_code_t c = { 0 };
	int fd;

	if (helper > 0) {
		const struct bpf_insn call[] = { KS_CALL(helper) };

		ks_emit(&c, call, 1);
	}
	{
		const struct bpf_insn ret[] = { KS_MOV64_IMM(BPF_REG_0, 0), KS_EXIT() };

		ks_emit(&c, ret, 2);
	}
	fd = load_code(type, attach_type, 0, "ks_probe", &c, NULL, 0); /* never a fault */
	ks_code_free(&c);
	return fd;
}

static bool probe_uprobe_multi(void)
{
	uint64_t off = 0;
	int pfd = probe_prog(BPF_PROG_TYPE_KPROBE, KS_UPROBE_MULTI, 0), lfd;
	bool ok;

	if (pfd < 0)
		return false;
	/* "/" is not a regular file: EBADF from a kernel that knows the link, EINVAL if not */
	lfd = attach_uprobes(pfd, "/", &off, NULL, NULL, 1, -1, 0);
	ok = lfd == -EBADF;
	if (lfd >= 0)
		close(lfd);
	close(pfd);
	return ok;
}

static void probe_features(void)
{
	int fd;

	features.kf_ringbuf = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) == 1;
	features.kf_uprobe_pmu = pmu_type("uprobe") >= 0;
	/* ref_ctr_offset for perf uprobes came with the same format file (5.1) */
	features.kf_uprobe_refctr =
	    features.kf_uprobe_pmu &&
	    access("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", F_OK) == 0;
	features.kf_uprobe_multi = probe_uprobe_multi();
	if ((fd = probe_prog(BPF_PROG_TYPE_KPROBE, 0, BPF_FUNC_get_attach_cookie)) >= 0) {
		features.kf_cookie = true;
		close(fd);
	}
}

const ks_features_t *ks_features(void)
{
	pthread_once(&features_once, probe_features);
	return &features;
}

static pthread_once_t tracing_once = PTHREAD_ONCE_INIT;

/*
 * Load the least tracing program bound to BTF type name of kind kind with
 * attach_type, and attach it: true, or false with *err and *step saying
 * which of the three failed (what = "an fentry program").
 */
static bool probe_btf_prog(ks_btf_t *b, const char *name, int kind, uint32_t attach_type, int *err,
			   const char **step, const char *const steps[3])
{
	const struct bpf_insn ret[] = { KS_MOV64_IMM(BPF_REG_0, 0), KS_EXIT() };
	ks_code_t c = { 0 };
	int id, pfd, lfd;

	if ((id = b == NULL ? -ENOENT : ks_btf_id(b, name, kind)) < 0) {
		*err = -id;
		*step = steps[0];
		return false;
	}
	ks_emit(&c, ret, 2);
	pfd = load_code(BPF_PROG_TYPE_TRACING, attach_type, (uint32_t)id, "ks_probe", &c, NULL, 0);
	ks_code_free(&c);
	if (pfd < 0) {
		*err = -pfd;
		*step = steps[1];
		return false;
	}
	lfd = bpf_raw_tracepoint_open(NULL, pfd);
	lfd = lfd < 0 ? -errno : lfd;
	close(pfd);
	if (lfd < 0) {
		*err = -lfd;
		*step = steps[2];
		return false;
	}
	close(lfd);
	*err = 0;
	*step = NULL;
	return true;
}

static void probe_tracing(void)
{
	static const char *const tp_steps[] = { "the kernel's BTF has no sched_switch tracepoint",
						"loading a tp_btf program",
						"attaching a tp_btf program" };
	static const char *const fentry_steps[] = {
		"the kernel's BTF has no bpf_fentry_test1 function", "loading an fentry program",
		"attaching an fentry program"
	};
	ks_btf_t *b = NULL;
	int err = ks_btf_open(&b);

	/* no BTF at all: neither can be loaded */
	if (err != 0) {
		features.kf_tp_btf_err = features.kf_fentry_err = -err;
		features.kf_tp_btf_step = features.kf_fentry_step = "reading the kernel's BTF";
		return;
	}
	features.kf_tp_btf =
	    probe_btf_prog(b, "btf_trace_sched_switch", BTF_KIND_TYPEDEF, BPF_TRACE_RAW_TP,
			   &features.kf_tp_btf_err, &features.kf_tp_btf_step, tp_steps);
	/* a function that is there to be traced (net/bpf/test_run.c), called by no one */
	features.kf_fentry =
	    probe_btf_prog(b, "bpf_fentry_test1", BTF_KIND_FUNC, BPF_TRACE_FENTRY,
			   &features.kf_fentry_err, &features.kf_fentry_step, fentry_steps);
	ks_btf_close(b);
}

const ks_features_t *ks_features_tracing(void)
{
	pthread_once(&features_once, probe_features);
	pthread_once(&tracing_once, probe_tracing);
	return &features;
}

static bool write_user;
static pthread_once_t write_user_once = PTHREAD_ONCE_INIT;

/*
 * A kernel in lockdown (security_locked_down(LOCKDOWN_BPF_WRITE_USER))
 * gives no prototype for the helper, and the verifier refuses a program
 * that calls it ("program of this type cannot use helper", "unknown
 * func" before 6.x, words libbpf's helper probe does not all know): so
 * load a real call, write_user(0, a zeroed stack byte, 1), and see.
 */
static void probe_write_user(void)
{
	const struct bpf_insn insns[] = {
		KS_ST_MEM(BPF_DW, BPF_REG_10, -8, 0), KS_MOV64_IMM(BPF_REG_1, 0),
		KS_MOV64_REG(BPF_REG_2, BPF_REG_10),  KS_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
		KS_MOV64_IMM(BPF_REG_3, 1),	      KS_CALL(BPF_FUNC_probe_write_user),
		KS_MOV64_IMM(BPF_REG_0, 0),	      KS_EXIT(),
	};
	ks_code_t c = { 0 };
	int fd;

	ks_emit(&c, insns, sizeof(insns) / sizeof(insns[0]));
	fd = ks_prog_load(BPF_PROG_TYPE_KPROBE, 0, "ks_probe", &c, NULL, 0);
	ks_code_free(&c);
	write_user = fd >= 0;
	if (fd >= 0)
		close(fd);
}

bool ks_write_user_ok(void)
{
	pthread_once(&write_user_once, probe_write_user);
	return write_user;
}
