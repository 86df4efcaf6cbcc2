/*
 * ks_perf.c -- the per-CPU output buffers: libbpf's perf_buffer (a perf
 * event and a ring of pages per CPU, stored in a perf event array map),
 * behind a handle of our own so callers see none of libbpf's types.
 */
#include <errno.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "ks.h"

struct ks_perfbuf {
	struct perf_buffer *pb_pb;
	ks_sample_f *pb_sample;
	ks_lost_f *pb_lost;
	void *pb_ctx;
};

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	ks_perfbuf_t *pb = ctx;

	pb->pb_sample(pb->pb_ctx, cpu, data, size);
}

static void on_lost(void *ctx, int cpu, __u64 n)
{
	ks_perfbuf_t *pb = ctx;

	pb->pb_lost(pb->pb_ctx, cpu, n);
}

int ks_perfbuf_create(int map_fd, size_t pages, ks_sample_f *sample, ks_lost_f *lost, void *ctx,
		      ks_perfbuf_t **pbp)
{
	ks_perfbuf_t *pb;
	int err = ks_fault(KS_OP_PERFBUF);

	*pbp = NULL;
	if (err != 0)
		return err;
	if (sample == NULL || pages == 0 || (pages & (pages - 1)) != 0)
		return -EINVAL;
	if ((pb = calloc(1, sizeof(*pb))) == NULL)
		return -ENOMEM;
	pb->pb_sample = sample;
	pb->pb_lost = lost;
	pb->pb_ctx = ctx;
	/* without a lost callback libbpf skips the kernel's LOST records */
	pb->pb_pb =
	    perf_buffer__new(map_fd, pages, on_sample, lost != NULL ? on_lost : NULL, pb, NULL);
	if (pb->pb_pb == NULL) {
		err = errno > 0 ? errno : EINVAL;
		free(pb);
		return -err;
	}
	*pbp = pb;
	return 0;
}

int ks_perfbuf_fd(const ks_perfbuf_t *pb)
{
	return perf_buffer__epoll_fd(pb->pb_pb);
}

int ks_perfbuf_consume(ks_perfbuf_t *pb)
{
	int err = perf_buffer__consume(pb->pb_pb);

	return err < 0 ? err : 0;
}

void ks_perfbuf_free(ks_perfbuf_t *pb)
{
	if (pb == NULL)
		return;
	perf_buffer__free(pb->pb_pb);
	free(pb);
}
