/*
 * ks_kernel.c -- building instruction sequences, creating maps, loading
 * programs, attaching them to uprobes, and probing what the kernel can do.
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

int ks_map_create(enum bpf_map_type type, const char *name, uint32_t key_size,
		  uint32_t value_size, uint32_t max_entries)
{
	int fd = bpf_map_create(type, name, key_size, value_size, max_entries, NULL);

	return fd < 0 ? -errno : fd;
}

int ks_prog_load(enum bpf_prog_type type, const char *name, const ks_code_t *code, char *log,
		 size_t loglen)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int fd, err;

	if (code->kc_oom || code->kc_len == 0)
		return -EINVAL;
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

int ks_prog_run(int prog_fd)
{
	uint64_t args[12] = { 0 }; /* MAX_BPF_FUNC_ARGS */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	return bpf_prog_test_run_opts(prog_fd, &opts) == 0 ? 0 : -errno;
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

static int bind_prog(int prog_fd, int pfd);

int ks_attach_uprobe(int prog_fd, const char *path, uint64_t offset, uint64_t ref_ctr_off,
		     bool ret, pid_t pid)
{
	struct perf_event_attr attr;
	int type = pmu_type("uprobe"), pfd;

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
	return bind_prog(prog_fd, pfd);
}

/* Bind a program to a perf event: a BPF link, or the older ioctl. */
static int bind_prog(int prog_fd, int pfd)
{
	int lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, NULL);

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

int ks_attach_timer(int prog_fd, int cpu, uint64_t period_ns)
{
	struct perf_event_attr attr;
	int pfd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = period_ns; /* the CPU clock counts nanoseconds */
	pfd = (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	return bind_prog(prog_fd, pfd);
}

static ks_features_t features;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

static void probe_features(void)
{
	features.kf_ringbuf = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) == 1;
	features.kf_uprobe_pmu = pmu_type("uprobe") >= 0;
	/* ref_ctr_offset for perf uprobes came with the same format file (5.1) */
	features.kf_uprobe_refctr =
		features.kf_uprobe_pmu &&
		access("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", F_OK) == 0;
}

const ks_features_t *ks_features(void)
{
	pthread_once(&features_once, probe_features);
	return &features;
}
