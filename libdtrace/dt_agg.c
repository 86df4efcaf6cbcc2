/*
 * dt_agg.c -- aggregations in the consumer: snapshots of the BPF maps (a
 * slot per CPU in each value) merged into one value per key, sorted and printed as illumos
 * dtrace(1) prints them (dt_consume.c and dt_aggregate.c there), and the
 * library actions printa, clear, trunc, normalize and denormalize.
 *
 * The kernel's maps hold the running totals: a snapshot is a copy of
 * them.  clear() zeroes the kernel's entries (their keys stay), trunc()
 * deletes them.  Where illumos divides a negative value by normalize()'s
 * factor as unsigned, or prints a negative avg() through printa's format
 * as unsigned, we print the signed result.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/btf.h>

#include "dt_run.h"

typedef unsigned __int128 u128;

/* A snapshot: n entries, each its key and its merged value slots. */
typedef struct dt_asnap {
	size_t as_n;
	uint8_t *as_keys;
	uint64_t *as_vals;
} dt_asnap_t;

static dt_asnap_t g_empty;

static size_t nslots(const dt_agg_t *ag)
{
	return ag->ag_valsize / 8;
}

/* ---------------------------------------------------------------- snapshots */

/* Merge one CPU's value into the total. */
static void merge(const dt_agg_t *ag, uint64_t *tot, const uint64_t *cpu)
{
	size_t n = nslots(ag);

	if (cpu[0] == 0)
		return;
	switch (ag->ag_fn) {
	case DT_AGG_MIN:
	case DT_AGG_MAX:
		if (tot[0] == 0 || (ag->ag_fn == DT_AGG_MIN ? (int64_t)cpu[1] < (int64_t)tot[1]
							    : (int64_t)cpu[1] > (int64_t)tot[1]))
			tot[1] = cpu[1];
		tot[0] += cpu[0];
		return;
	case DT_AGG_STDDEV: {
		u128 a = (u128)tot[3] << 64 | tot[2], b = (u128)cpu[3] << 64 | cpu[2];

		a += b;
		tot[0] += cpu[0];
		tot[1] += cpu[1];
		tot[2] = (uint64_t)a;
		tot[3] = (uint64_t)(a >> 64);
		return;
	}
	default:
		for (size_t i = 0; i < n; i++)
			tot[i] += cpu[i];
		return;
	}
}

void dt_agg_snap_free(dt_aggview_t *av)
{
	dt_asnap_t *s = av->av_snap;

	if (s == NULL)
		return;
	free(s->as_keys);
	free(s->as_vals);
	free(s);
	av->av_snap = NULL;
}

/* A snapshot being read: an aggregation's entries so far. */
typedef struct snapbuild {
	size_t sb_n, sb_cap;
	uint8_t *sb_keys;
	uint64_t *sb_vals;
} snapbuild_t;

/* Room for one more entry of ag in b: 0, or -1. */
static int snap_room(snapbuild_t *b, const dt_agg_t *ag)
{
	size_t nc = b->sb_cap ? 2 * b->sb_cap : 16;
	uint8_t *nk;
	uint64_t *nv;

	if (b->sb_n < b->sb_cap)
		return 0;
	if ((nk = realloc(b->sb_keys, nc * ag->ag_keysize)) == NULL)
		return -1;
	b->sb_keys = nk;
	if ((nv = realloc(b->sb_vals, nc * nslots(ag) * 8)) == NULL)
		return -1;
	b->sb_vals = nv;
	b->sb_cap = nc;
	return 0;
}

static int bytes_cmp(const void *pa, const void *pb, void *arg)
{
	const snapbuild_t *b = ((const void **)arg)[0];
	size_t ks = *(const size_t *)((const void **)arg)[1];

	return memcmp(b->sb_keys + *(const size_t *)pa * ks, b->sb_keys + *(const size_t *)pb * ks,
		      ks);
}

/*
 * Keys of ufunc(), usym() and umod() as illumos aggregates them
 * (dt_aggregate_usym, dt_aggregate_umod): the address moved to its
 * symbol's start or its object's, and the entries that then have the same
 * key merged into one, so that @[ufunc(pc)] counts by function.  0, or -1
 * out of memory.
 */
static int normalize(dtrace_hdl_t *dtp, const dt_agg_t *ag, snapbuild_t *b)
{
	size_t ks = ag->ag_keysize, vs = nslots(ag), m = 0, *ix;
	const void *arg[2] = { b, &ks };
	uint8_t *nk;
	uint64_t *nv;
	bool any = false;

	for (int k = 0; k < ag->ag_nkeys; k++)
		any |= ag->ag_keys[k].r_kind == DT_RK_USYM && ag->ag_keys[k].r_sym != DT_B_UADDR;
	if (!any || b->sb_n == 0)
		return 0;
	for (size_t e = 0; e < b->sb_n; e++)
		for (int k = 0; k < ag->ag_nkeys; k++) {
			const dt_rec_t *r = &ag->ag_keys[k];
			uint8_t *p = b->sb_keys + e * ks + r->r_off;
			uint64_t pid, pc;
			dt_usym_t u;

			if (r->r_kind != DT_RK_USYM || r->r_sym == DT_B_UADDR)
				continue;
			memcpy(&pid, p, 8);
			memcpy(&pc, p + 8, 8);
			if (dt_sym_rec_lookup(dtp, r->r_sym, pid, pc, &u) != 0)
				continue;
			if (r->r_sym == DT_B_UMOD || r->r_sym == DT_B_MOD)
				pc = u.us_modbase;
			else if (u.us_name != NULL)
				pc = u.us_symaddr;
			memcpy(p + 8, &pc, 8);
		}
	ix = malloc(b->sb_n * sizeof(*ix));
	nk = malloc(b->sb_n * ks);
	nv = malloc(b->sb_n * vs * 8);
	if (ix == NULL || nk == NULL || nv == NULL) {
		free(ix);
		free(nk);
		free(nv);
		return -1;
	}
	for (size_t e = 0; e < b->sb_n; e++)
		ix[e] = e;
	qsort_r(ix, b->sb_n, sizeof(*ix), bytes_cmp, arg);
	for (size_t i = 0; i < b->sb_n; i++) {
		const uint8_t *key = b->sb_keys + ix[i] * ks;
		const uint64_t *val = b->sb_vals + ix[i] * vs;

		if (m > 0 && memcmp(nk + (m - 1) * ks, key, ks) == 0) {
			merge(ag, nv + (m - 1) * vs, val);
			continue;
		}
		memcpy(nk + m * ks, key, ks);
		memcpy(nv + m * vs, val, vs * 8);
		m++;
	}
	free(ix);
	free(b->sb_keys);
	free(b->sb_vals);
	b->sb_keys = nk;
	b->sb_vals = nv;
	b->sb_n = m;
	b->sb_cap = b->sb_n;
	return 0;
}

/* One entry of a shape's map read: added to the snapshot of the aggregation its id names. */
static int snap_entry(dt_run_t *r, const dt_aggview_t *av, snapbuild_t *sb, const uint8_t *key,
		      const uint64_t *val)
{
	const dt_agg_t *ag = av->av_ag;
	size_t ncpu = (size_t)r->r_ld.ld_ncpus, vs = nslots(ag);
	uint64_t id;
	snapbuild_t *b;
	uint64_t *tot;

	memcpy(&id, key, sizeof(id));
	if (id < 1 || id > r->r_dr.dr_naggs || r->r_dr.dr_aggs[id - 1].av_fd != av->av_fd)
		return 0; /* not one of ours: cannot be */
	b = &sb[id - 1];
	if (snap_room(b, ag) != 0)
		return -1;
	memcpy(b->sb_keys + b->sb_n * ag->ag_keysize, key + DT_AGG_IDSIZE, ag->ag_keysize);
	tot = b->sb_vals + b->sb_n * vs;
	memset(tot, 0, vs * 8);
	for (size_t c = 0; c < ncpu; c++)
		merge(r->r_dr.dr_aggs[id - 1].av_ag, tot, val + c * vs);
	b->sb_n++;
	return 0;
}

/*
 * The view of av's map that keeps its iterator program (the first of the
 * map's), the program loaded if it was not (an fd, or negative where it
 * cannot be: a kernel without bpf_iter, or without BTF).
 */
static int iter_prog(dtrace_hdl_t *dtp, dt_run_t *r, const dt_aggview_t *av, uint32_t ks,
		     uint32_t vsize)
{
	dt_aggview_t *own = NULL;
	struct ks_btf *btf;
	int id;

	for (uint32_t i = 0; own == NULL && i < r->r_dr.dr_naggs; i++)
		if (r->r_dr.dr_aggs[i].av_fd == av->av_fd)
			own = &r->r_dr.dr_aggs[i];
	if (own == NULL)
		return -1;
	if (own->av_iter == 0) {
		own->av_iter = -1;
		if ((btf = dt_btf(dtp)) != NULL &&
		    (id = ks_btf_id(btf, "bpf_iter_bpf_map_elem", BTF_KIND_FUNC)) > 0) {
			int fd = ks_map_iter_prog((uint32_t)id, ks, vsize);

			own->av_iter = fd > 0 ? fd : -1;
		}
	}
	return own->av_iter;
}

/*
 * The largest entry read through the iterator: the kernel's buffer for an
 * iterator's output is 8 pages (bpf_iter.c), and a read fails with E2BIG
 * where one entry does not fit (a wide llquantize on many CPUs).
 */
#define DT_ITER_MAXREC 8192

/*
 * Every entry of av's map through its iterator, to snap_entry: 0, 1 where
 * there is no iterator or its read failed (the entries it gave taken out
 * again: the batches go on), or -1 (errno set).
 */
static int snap_iter(dtrace_hdl_t *dtp, dt_run_t *r, const dt_aggview_t *av, snapbuild_t *sb,
		     size_t ks, size_t vsize)
{
	size_t rec = ks + vsize, have = 0, cap = rec * ((1u << 20) / rec + 1);
	int prog, fd, rc = 0;
	uint8_t *buf;
	uint64_t *val = NULL;

	if (rec > DT_ITER_MAXREC)
		return 1;
	prog = iter_prog(dtp, r, av, (uint32_t)ks, (uint32_t)vsize);
	if (prog < 0 || (fd = ks_map_iter_open(prog, av->av_fd)) < 0)
		return 1;
	buf = malloc(cap);
	if (ks % 8 != 0) /* values start unaligned in the stream */
		val = malloc(vsize);
	if (buf == NULL || (ks % 8 != 0 && val == NULL)) {
		rc = dt_set_errno(dtp, EDT_NOMEM);
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, buf + have, cap - have);
		size_t e = 0;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			for (uint32_t i = 0; i < r->r_dr.dr_naggs; i++)
				sb[i].sb_n = 0;
			rc = 1;
			goto out;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		for (; e + rec <= have; e += rec) {
			const uint64_t *v = (const uint64_t *)(void *)(buf + e + ks);

			if (val != NULL)
				v = memcpy(val, buf + e + ks, vsize);
			if (snap_entry(r, av, sb, buf + e, v) != 0) {
				rc = dt_set_errno(dtp, EDT_NOMEM);
				goto out;
			}
		}
		memmove(buf, buf + e, have - e);
		have -= e;
	}
out:
	close(fd);
	free(buf);
	free(val);
	return rc;
}

/*
 * Snapshot every aggregation of av's shape: the map they share is read
 * once, a batch at a time where the kernel can (one system call for
 * thousands of keys), key by key where it cannot, and its entries split by
 * the id their key starts with (dt_program.h).  A map with more entries
 * than the first batch took is read again through a bpf_iter, where the
 * kernel has one: the batches lock and copy out each hash bucket on its own
 * (a million keys: 0.33-0.37 s of CPU time by batches, 0.21-0.26 s by the
 * iterator, five runs each on a 2-CPU VM).  Each aggregation of the shape
 * gets a new snapshot, as of this read.
 */
static int snap(dtrace_hdl_t *dtp, dt_run_t *r, dt_aggview_t *av, bool raw)
{
	const dt_agg_t *ag = av->av_ag;
	size_t ncpu = (size_t)r->r_ld.ld_ncpus, vs = nslots(ag);
	size_t per = vs * ncpu; /* u64s per key, every CPU */
	size_t ks = DT_AGG_IDSIZE + ag->ag_keysize;
	snapbuild_t *sb = calloc(r->r_dr.dr_naggs, sizeof(*sb)); /* by id - 1 */
	uint8_t *kb = NULL;
	uint64_t *vb = NULL;
	/* a batch of at most 4096 keys and about 1 MiB of values (a 4095-bucket
	   llquantize on many CPUs would otherwise ask for gigabytes) */
	uint32_t batch = (uint32_t)(per * 8 >= (1u << 20) ? 1 : (1u << 20) / (per * 8));
	ks_map_batch_t mb;
	bool first = true;
	int rc = 0;

	if (batch > 4096)
		batch = 4096;
	ks_map_batch_init(&mb, av->av_fd, (uint32_t)ks, (uint32_t)(per * 8));
	kb = malloc((size_t)batch * ks);
	vb = malloc((size_t)batch * per * 8);
	if (sb == NULL || kb == NULL || vb == NULL) {
		rc = dt_set_errno(dtp, EDT_NOMEM);
		goto out;
	}
	for (;; first = false) {
		int got = ks_map_lookup_batch(&mb, kb, vb, batch);

		if (got < 0) {
			rc = dt_set_errmsg(dtp, EDT_ENABLING, "cannot read @%s: %s", ag->ag_name,
					   strerror(-got));
			goto out;
		}
		if (got == 0)
			break;
		if (first && !ks_map_batch_done(&mb)) { /* more: the iterator, if any */
			int it = snap_iter(dtp, r, av, sb, ks, per * 8);

			if (it < 0) {
				rc = -1;
				goto out;
			}
			if (it == 0)
				break;
		}
		for (int i = 0; i < got; i++)
			if (snap_entry(r, av, sb, kb + (size_t)i * ks, vb + (size_t)i * per) != 0) {
				rc = dt_set_errno(dtp, EDT_NOMEM);
				goto out;
			}
	}
	for (uint32_t i = 0; i < r->r_dr.dr_naggs; i++) {
		dt_aggview_t *v = &r->r_dr.dr_aggs[i];
		dt_asnap_t *s;

		if (v->av_fd != av->av_fd)
			continue;
		if ((!raw && normalize(dtp, v->av_ag, &sb[i]) != 0) ||
		    (s = calloc(1, sizeof(*s))) == NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			goto out;
		}
		s->as_n = sb[i].sb_n;
		s->as_keys = sb[i].sb_keys;
		s->as_vals = sb[i].sb_vals;
		sb[i] = (snapbuild_t){ 0 };
		dt_agg_snap_free(v);
		v->av_snap = s;
	}
out:
	ks_map_batch_fini(&mb);
	for (uint32_t i = 0; sb != NULL && i < r->r_dr.dr_naggs; i++) {
		free(sb[i].sb_keys);
		free(sb[i].sb_vals);
	}
	free(sb);
	free(kb);
	free(vb);
	return rc;
}

/* Snapshot the aggregations ids (n) name: each shape's map read once. */
static int snap_ids(dtrace_hdl_t *dtp, dt_run_t *r, const uint32_t *ids, int n)
{
	for (int i = 0; i < n; i++) {
		dt_aggview_t *av =
		    ids[i] >= 1 && ids[i] <= r->r_dr.dr_naggs ? &r->r_dr.dr_aggs[ids[i] - 1] : NULL;
		bool done = false;

		for (int j = 0; av != NULL && j < i && !done; j++)
			done = ids[j] >= 1 && ids[j] <= r->r_dr.dr_naggs &&
			       r->r_dr.dr_aggs[ids[j] - 1].av_fd == av->av_fd;
		if (av != NULL && !done && snap(dtp, r, av, false) != 0)
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- values */

static int64_t qbucket_value(int i)
{
	return i < DT_QUANTIZE_ZERO    ? -(int64_t)(1ULL << (DT_QUANTIZE_ZERO - 1 - i))
	       : i == DT_QUANTIZE_ZERO ? 0
				       : (int64_t)(1ULL << (i - DT_QUANTIZE_ZERO - 1));
}

static uint64_t isqrt128(u128 v)
{
	u128 res = 0, bit = (u128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit != 0) {
		if (v >= res + bit) {
			v -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)res;
}

/* illumos dt_stddev: sqrt(avg of squares - square of avg), 128-bit, truncating. */
static uint64_t stddev(const uint64_t *v, uint64_t normal)
{
	u128 sq = (u128)v[3] << 64 | v[2], avg2;
	int64_t avg;

	if (v[0] == 0 || normal == 0)
		return 0;
	sq = sq / normal / normal / v[0];
	avg = (int64_t)v[1] / (int64_t)normal / (int64_t)v[0];
	if (avg < 0)
		avg = -avg;
	avg2 = (u128)(uint64_t)avg * (uint64_t)avg;
	return isqrt128(sq - avg2);
}

/* The value of count, sum, min, max, avg (normalized), as printed. */
static int64_t scalar(const dt_agg_t *ag, const uint64_t *v, uint64_t normal)
{
	int64_t d = normal ? (int64_t)normal : 1;

	if (d == 1) /* no division: the sort calls this for each entry */
		switch (ag->ag_fn) {
		case DT_AGG_COUNT: return (int64_t)v[0];
		case DT_AGG_SUM:
		case DT_AGG_MIN:
		case DT_AGG_MAX: return v[0] ? (int64_t)v[1] : 0;
		default: break;
		}
	switch (ag->ag_fn) {
	case DT_AGG_COUNT: return (int64_t)v[0] / d;
	case DT_AGG_AVG: return v[0] ? (int64_t)v[1] / d / (int64_t)v[0] : 0;
	case DT_AGG_STDDEV: return (int64_t)stddev(v, normal);
	default: return v[0] ? (int64_t)v[1] / d : 0;
	}
}

/* The value a quantization sorts by: the sum of bucket values times counts. */
static long double qweight(const dt_agg_t *ag, const uint64_t *v, uint64_t *zero)
{
	const uint64_t *b = v + 1;
	long double t = 0;

	*zero = 0;
	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		for (int i = 0; i < DT_QUANTIZE_NBUCKETS; i++)
			t += (long double)qbucket_value(i) * (long double)(int64_t)b[i];
		*zero = b[DT_QUANTIZE_ZERO];
	} else if (ag->ag_fn == DT_AGG_LQUANTIZE) {
		int64_t base = ag->ag_args[0], levels = ag->ag_args[1], step = ag->ag_args[2];

		t = (long double)(int64_t)b[0] * (long double)(base - 1);
		for (int64_t k = 0; k < levels; k++) {
			t += (long double)(int64_t)b[1 + k] * (long double)(base + k * step);
			if (base + k * step == 0)
				*zero = b[1 + k];
		}
		t += (long double)(int64_t)b[levels + 1] * (long double)(base + levels * step + 1);
		if (base - 1 == 0)
			*zero = b[0];
	} else { /* llquantize: below factor^low weighs factor^low - 1 */
		t = (long double)(int64_t)b[0] * (long double)(ag->ag_llqval[0] - 1);
		for (uint32_t i = 1; i < ag->ag_nbuckets; i++)
			t += (long double)(int64_t)b[i] * (long double)ag->ag_llqval[i];
		*zero = b[0];
	}
	return t;
}

/* ---------------------------------------------------------------- sorting */

typedef struct sortctx {
	const dt_agg_t *sc_ag;
	const dt_asnap_t *sc_s;
	int sc_rev; /* -1 reverses */
	bool sc_keyfirst;
	int sc_keypos;
} sortctx_t;

static int valcmp(const dt_agg_t *ag, const uint64_t *a, const uint64_t *b)
{
	if (ag->ag_fn >= DT_AGG_QUANTIZE) {
		uint64_t za, zb;
		long double wa = qweight(ag, a, &za), wb = qweight(ag, b, &zb);

		if (wa != wb)
			return wa < wb ? -1 : 1;
		return za < zb ? -1 : za > zb ? 1 : 0;
	}
	if (ag->ag_fn == DT_AGG_STDDEV) {
		uint64_t x = stddev(a, 1), y = stddev(b, 1);

		return x < y ? -1 : x > y;
	}
	{
		int64_t x = scalar(ag, a, 1), y = scalar(ag, b, 1);

		return x < y ? -1 : x > y;
	}
}

/* Keys compare as unsigned integers (as illumos: -1 sorts after 1) or as bytes. */
static int keycmp(const dt_agg_t *ag, int keypos, const uint8_t *a, const uint8_t *b)
{
	int n = ag->ag_nkeys;

	if (keypos >= n) /* as illumos: past the last key is the first */
		keypos = 0;
	for (int i = 0; i < n; i++) {
		const dt_rec_t *k = &ag->ag_keys[(i + keypos) % n];
		int c;

		if (k->r_kind == DT_RK_INT) {
			uint64_t x, y;

			memcpy(&x, a + k->r_off, 8);
			memcpy(&y, b + k->r_off, 8);
			if (k->r_size < 8) {
				x &= (1ULL << (8 * k->r_size)) - 1;
				y &= (1ULL << (8 * k->r_size)) - 1;
			}
			c = x < y ? -1 : x > y;
		} else {
			c = memcmp(a + k->r_off, b + k->r_off, k->r_size);
			c = c < 0 ? -1 : c > 0;
		}
		if (c != 0)
			return c;
	}
	return 0;
}

static int entcmp(const void *pa, const void *pb, void *arg)
{
	const sortctx_t *sc = arg;
	const dt_agg_t *ag = sc->sc_ag;
	size_t i = *(const size_t *)pa, j = *(const size_t *)pb, vs = nslots(ag);
	const uint8_t *ka = sc->sc_s->as_keys + i * ag->ag_keysize;
	const uint8_t *kb = sc->sc_s->as_keys + j * ag->ag_keysize;
	int c;

	if (sc->sc_keyfirst) {
		if ((c = keycmp(ag, sc->sc_keypos, ka, kb)) == 0)
			c = valcmp(ag, sc->sc_s->as_vals + i * vs, sc->sc_s->as_vals + j * vs);
	} else if ((c = valcmp(ag, sc->sc_s->as_vals + i * vs, sc->sc_s->as_vals + j * vs)) == 0) {
		c = keycmp(ag, sc->sc_keypos, ka, kb);
	}
	return c * sc->sc_rev;
}

static int keyonlycmp(const void *pa, const void *pb, void *arg)
{
	const sortctx_t *sc = arg;
	size_t ks = sc->sc_ag->ag_keysize;

	return keycmp(sc->sc_ag, sc->sc_keypos, sc->sc_s->as_keys + *(const size_t *)pa * ks,
		      sc->sc_s->as_keys + *(const size_t *)pb * ks);
}

/*
 * An entry's place in the order entcmp gives, as two unsigned words
 * compared in turn (the first, then the second): an integer key as keycmp
 * reads it, a value as valcmp does (signed values with their sign bit
 * flipped, so that unsigned order is theirs).
 */
typedef struct sortrec {
	uint64_t sr_hi, sr_lo;
	size_t sr_ix;
} sortrec_t;

/*
 * LSD radix sort of n records by (sr_hi, sr_lo), a byte a pass, from the
 * low byte of sr_lo up; a byte every record has the same value in is no
 * pass at all (a million counts of 1 keyed 0..999999: three passes).
 * The result is in a, tmp its room.
 */
static void radix_sort(sortrec_t *a, sortrec_t *tmp, size_t n)
{
	size_t cnt[16][256]; /* 32 KiB */
	sortrec_t *from = a, *to = tmp;

	memset(cnt, 0, sizeof(cnt));
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++) {
			cnt[b][(a[i].sr_lo >> (8 * b)) & 0xff]++;
			cnt[8 + b][(a[i].sr_hi >> (8 * b)) & 0xff]++;
		}
	for (int p = 0; p < 16; p++) {
		int sh = 8 * (p & 7);
		size_t *c = cnt[p], sum = 0;
		bool hi = p >= 8;

		if (c[((hi ? a[0].sr_hi : a[0].sr_lo) >> sh) & 0xff] == n)
			continue;
		for (int d = 0; d < 256; d++) {
			size_t t = c[d];

			c[d] = sum;
			sum += t;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t w = hi ? from[i].sr_hi : from[i].sr_lo;

			to[c[(w >> sh) & 0xff]++] = from[i];
		}
		from = to;
		to = from == a ? tmp : a;
	}
	if (from != a)
		memcpy(a, from, n * sizeof(*a));
}

/*
 * entcmp's order without entcmp where it is integers: for count(), sum(),
 * min(), max(), avg() and stddev(), whose values are integers, sorted by
 * value and one integer key (or the key, then the value) in a radix sort;
 * other keys by value in the radix sort, then keycmp within each run of
 * equal values.  false where it cannot (quantizations; keys first that
 * are not one integer), or out of memory: qsort_r then.
 */
static bool intkey(const dt_agg_t *ag)
{
	return ag->ag_nkeys == 1 && ag->ag_keys[0].r_kind == DT_RK_INT;
}

/*
 * The records of sc's entries in entcmp's order, not reversed (the
 * caller's to free), or NULL where sort_fast cannot, or out of memory.
 * Where the key is not one integer, the records hold the value alone.
 */
static sortrec_t *sort_recs(const sortctx_t *sc)
{
	const dt_agg_t *ag = sc->sc_ag;
	const dt_asnap_t *s = sc->sc_s;
	size_t n = s->as_n, vs = nslots(ag), ks = ag->ag_keysize;
	const dt_rec_t *k0 = ag->ag_nkeys > 0 ? &ag->ag_keys[0] : NULL;
	bool ik = intkey(ag);
	uint64_t mask = ik && k0->r_size < 8 ? (1ULL << (8 * k0->r_size)) - 1 : ~0ULL;
	sortrec_t *a;

	if (ag->ag_fn >= DT_AGG_QUANTIZE || (sc->sc_keyfirst && !ik))
		return NULL;
	if ((a = malloc(2 * n * sizeof(*a))) == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const uint64_t *v = s->as_vals + i * vs;
		uint64_t val = ag->ag_fn == DT_AGG_STDDEV
				   ? stddev(v, 1)
				   : (uint64_t)scalar(ag, v, 1) ^ (1ULL << 63);
		uint64_t key = 0;

		if (ik) {
			memcpy(&key, s->as_keys + i * ks + k0->r_off, 8);
			key &= mask;
		}
		a[i] = sc->sc_keyfirst ? (sortrec_t){ key, val, i } : (sortrec_t){ val, key, i };
	}
	radix_sort(a, a + n, n);
	return a;
}

static bool sort_fast(const sortctx_t *sc, size_t *ix)
{
	size_t n = sc->sc_s->as_n;
	sortrec_t *a = sort_recs(sc);

	if (a == NULL)
		return false;
	for (size_t i = 0; i < n; i++)
		ix[i] = a[i].sr_ix;
	for (size_t i = 0, j; !intkey(sc->sc_ag) && i < n; i = j) { /* runs of one value, by key */
		for (j = i + 1; j < n && a[j].sr_hi == a[i].sr_hi; j++)
			;
		if (j - i > 1)
			qsort_r(ix + i, j - i, sizeof(*ix), keyonlycmp, (void *)sc);
	}
	free(a);
	if (sc->sc_rev < 0) /* entcmp's order reversed: no two entries compare equal */
		for (size_t i = 0, j = n - 1; i < j; i++, j--) {
			size_t t = ix[i];

			ix[i] = ix[j];
			ix[j] = t;
		}
	return true;
}

/* The aggsort options, into sc. */
static void sort_options(dtrace_hdl_t *dtp, sortctx_t *sc)
{
	sc->sc_rev = dt_option_get(dtp, "aggsortrev", 0) ? -1 : 1;
	sc->sc_keyfirst = dt_option_get(dtp, "aggsortkey", 0) != 0;
	sc->sc_keypos = (int)dt_option_get(dtp, "aggsortkeypos", 0);
}

/* The entries' order: by value then key, or as the aggsort options say. */
static size_t *sorted(dtrace_hdl_t *dtp, const dt_agg_t *ag, const dt_asnap_t *s, int rev,
		      bool options)
{
	size_t *ix = malloc((s->as_n ? s->as_n : 1) * sizeof(*ix));
	sortctx_t sc = { ag, s, rev, false, 0 };

	if (ix == NULL)
		return NULL;
	if (options)
		sort_options(dtp, &sc);
	if (s->as_n > 1 && sort_fast(&sc, ix))
		return ix;
	for (size_t i = 0; i < s->as_n; i++)
		ix[i] = i;
	qsort_r(ix, s->as_n, sizeof(*ix), entcmp, &sc);
	return ix;
}

/* ---------------------------------------------------------------- printing */

/*
 * -x encoding (illumos dt_opt_encoding): DT_ENC_UTF8 draws bars with the
 * Unicode block elements, DT_ENC_ASCII never; unset, only aggpack's
 * packed histograms choose by the terminal.
 */
enum { DT_ENC_UNSET, DT_ENC_ASCII, DT_ENC_UTF8 };

static int encoding(const dtrace_hdl_t *dtp)
{
	return (int)dt_option_get(dtp, "encoding", DT_ENC_UNSET);
}

/* A code point below 0x10000 as UTF-8's three bytes (the block elements U+2581..U+258F). */
static void put_utf8(FILE *fp, unsigned cp)
{
	fputc(0xe0 | (cp >> 12), fp);
	fputc(0x80 | ((cp >> 6) & 0x3f), fp);
	fputc(0x80 | (cp & 0x3f), fp);
}

/*
 * dt_quantize_total: bars are drawn against the sum of the rows shown, or
 * with -x aggzoom against the largest row, which then fills 95% of the
 * bar (DTRACE_AGGZOOM_MAX).
 */
#define DT_AGGZOOM_MAX 0.95

static void quantize_total(bool zoom, int64_t datum, long double *total)
{
	long double val = fabsl((long double)datum);

	if (!zoom) {
		*total += val;
		return;
	}
	val *= 1 / DT_AGGZOOM_MAX;
	if (*total < val)
		*total = val;
}

/* dt_print_quantline_utf8: eighths of a cell, U+2588 full down to U+258F. */
static void quantline_utf8(FILE *fp, int64_t val, uint64_t normal, long double total)
{
	static const char sp[] = "                                        ";
	unsigned len = 40, i, whole, partial;
	long double f = fabsl((long double)val) * len / total;

	whole = (unsigned)f;
	partial = (unsigned)((f - (long double)(unsigned)f) * 8.0L);
	fputc('|', fp);
	for (i = 0; i < whole; i++)
		put_utf8(fp, 0x2588);
	if (partial != 0) {
		put_utf8(fp, 0x258f - (partial - 1));
		i++;
	}
	fprintf(fp, "%s %-9lld\n", sp + (i < len ? i : len),
		(long long)(val / (int64_t)(normal ? normal : 1)));
}

/* dt_print_quantline: one row's bar and count. */
static void quantline(FILE *fp, int64_t val, uint64_t normal, long double total, bool pos, bool neg,
		      bool utf8)
{
	static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	static const char sp[] = "                                        ";
	int len = 40;
	unsigned depth = 0;
	long long shown = (long long)(val / (int64_t)(normal ? normal : 1));

	if (!neg && pos && utf8) {
		quantline_utf8(fp, val, normal, total);
		return;
	}
	if (!neg || !pos) {
		if (total > 0)
			depth = (unsigned)(fabsl((long double)val) * len / total + 0.5L);
		if (depth > (unsigned)len) /* never past the bar (illumos: not reached) */
			depth = (unsigned)len;
		if (!neg)
			fprintf(fp, "|%s%s %-9lld\n", ats + len - depth, sp + depth, shown);
		else
			fprintf(fp, "%s%s| %-9lld\n", sp + depth, ats + len - depth, shown);
		return;
	}
	len /= 2;
	depth = (unsigned)(fabsl((long double)val) * len / total + 0.5L);
	if (depth > (unsigned)len)
		depth = (unsigned)len;
	if (val <= 0)
		fprintf(fp, "%s%s|%*s %-9lld\n", sp + 20 + depth, ats + 20 + len - depth, len, "",
			shown);
	else
		fprintf(fp, "%20s|%s%s %-9lld\n", "", ats + 20 + len - depth, sp + 20 + depth,
			shown);
}

static void quantize_rows(dtrace_hdl_t *dtp, FILE *fp, const int64_t *b, uint32_t nb,
			  uint32_t first, uint32_t last, uint64_t normal, const dt_agg_t *ag)
{
	long double total = 0;
	bool pos = false, neg = false, zoom = dt_option_isset(dtp, "aggzoom");
	bool utf8 = encoding(dtp) == DT_ENC_UTF8;

	for (uint32_t i = first; i <= last; i++) {
		pos |= b[i] > 0;
		neg |= b[i] < 0;
		quantize_total(zoom, b[i], &total);
	}
	fprintf(fp, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
		"count");
	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		for (uint32_t i = first; i <= last; i++) {
			fprintf(fp, "%16lld ", (long long)qbucket_value((int)i));
			quantline(fp, b[i], normal, total, pos, neg, utf8);
		}
	} else if (ag->ag_fn == DT_AGG_LQUANTIZE) {
		int64_t base = ag->ag_args[0], levels = ag->ag_args[1], step = ag->ag_args[2];

		for (uint32_t i = first; i <= last; i++) {
			char c[32];

			if (i == 0) {
				snprintf(c, sizeof(c), "< %d", (int)base);
				fprintf(fp, "%16s ", c);
			} else if (i == (uint32_t)levels + 1) {
				snprintf(c, sizeof(c), ">= %d", (int)(base + levels * step));
				fprintf(fp, "%16s ", c);
			} else {
				fprintf(fp, "%16d ", (int)(base + (int64_t)(i - 1) * step));
			}
			quantline(fp, b[i], normal, total, pos, neg, utf8);
		}
	} else {
		for (uint32_t i = first; i <= last; i++) {
			char c[32];

			if (i == 0 || i == nb - 1) {
				snprintf(c, sizeof(c), "%s %lld",
					 i == 0 ? "<" : ">=", (long long)ag->ag_llqval[i]);
				fprintf(fp, "%16s ", c);
			} else {
				fprintf(fp, "%16lld ", (long long)ag->ag_llqval[i]);
			}
			quantline(fp, b[i], normal, total, pos, neg, utf8);
		}
	}
}

/* The buckets dt_print_quantize and its kin print: one empty bucket kept on each side. */
static void quantize_range(const dt_agg_t *ag, const int64_t *b, uint32_t *firstp, uint32_t *lastp)
{
	uint32_t nb = ag->ag_nbuckets, first = 0, last = nb - 1;

	while (first < last && b[first] == 0)
		first++;
	if (ag->ag_fn == DT_AGG_QUANTIZE && first == nb - 1) { /* no data: -1, 0, 1 */
		first = DT_QUANTIZE_ZERO - 1;
		last = DT_QUANTIZE_ZERO + 1;
	} else if (ag->ag_fn != DT_AGG_QUANTIZE && first == last && b[first] == 0) {
		first = 0;
		last = ag->ag_fn == DT_AGG_LQUANTIZE ? 2 : 1;
	} else {
		if (first > 0)
			first--;
		while (last > 0 && b[last] == 0)
			last--;
		if (last < nb - 1)
			last++;
	}
	*firstp = first;
	*lastp = last;
}

static void print_quantize(dtrace_hdl_t *dtp, FILE *fp, const dt_agg_t *ag, const uint64_t *v,
			   uint64_t normal)
{
	const int64_t *b = (const int64_t *)(v + 1);
	uint32_t first, last;

	quantize_range(ag, b, &first, &last);
	quantize_rows(dtp, fp, b, ag->ag_nbuckets, first, last, normal, ag);
}

static void print_value(dtrace_hdl_t *dtp, FILE *fp, const dt_agg_t *ag, const uint64_t *v,
			uint64_t normal)
{
	if (ag->ag_fn >= DT_AGG_QUANTIZE)
		print_quantize(dtp, fp, ag, v, normal);
	else if (ag->ag_fn == DT_AGG_STDDEV)
		fprintf(fp, " %16llu", (unsigned long long)stddev(v, normal));
	else
		fprintf(fp, " %16lld", (long long)scalar(ag, v, normal));
}

/* ---------------------------------------------------------------- buckets */

/* The values bucket i holds, [lo, hi]; false for an open end (below or above all). */
static void bucket_range(const dt_agg_t *ag, uint32_t i, int64_t *lo, bool *has_lo, int64_t *hi,
			 bool *has_hi)
{
	uint32_t nb = ag->ag_nbuckets;

	*has_lo = *has_hi = true;
	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		int64_t v = qbucket_value((int)i);

		*lo = v < 0 ? (i == 0 ? INT64_MIN : 2 * v + 1) : v;
		*hi = v <= 0 ? v : (i == nb - 1 ? INT64_MAX : 2 * v - 1);
		return;
	}
	if (ag->ag_fn == DT_AGG_LQUANTIZE) {
		int64_t base = ag->ag_args[0], levels = ag->ag_args[1], step = ag->ag_args[2];

		*has_lo = i > 0;
		*has_hi = i <= levels;
		*lo = base + ((int64_t)i - 1) * step;
		*hi = base + (int64_t)i * step - 1;
		return;
	}
	*has_lo = i > 0;
	*has_hi = i < nb - 1;
	*lo = ag->ag_llqval[i];
	*hi = i == 0 ? ag->ag_llqval[0] - 1 : ag->ag_llqval[i + 1 < nb ? i + 1 : i] - 1;
}

/* ---------------------------------------------------------------- folded stacks */

/*
 * -x oformat=folded: each entry of an aggregation as one line, its frames
 * root first and joined by ';', a space and its value: the "folded"
 * format of Brendan Gregg's stackcollapse scripts, which flamegraph.pl and
 * speedscope read.  A stack key's frames are module`function without
 * offsets (so that a function is one box whatever the return address in
 * it); the keys that are not stacks come first, as frames of their own
 * (@[execname, ustack()]: "python3.11;libc.so.6`_start;..."); user frames
 * come before kernel frames, which get stackcollapse-perf's "_[k]".
 * Entries whose lines are then the same are one line, their values added.
 * A quantization's value is the number of values it holds.
 */

typedef struct fold_line {
	char *fl_stack;
	int64_t fl_value;
} fold_line_t;

/* A frame's text made safe for the format: ';' splits frames, a line ends an entry. */
static void fold_frame(FILE *fp, const char *s, size_t n, bool *first)
{
	if (!*first)
		fputc(';', fp);
	*first = false;
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0) { /* an empty string: a frame all the same */
		fputs("\"\"", fp);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		fputc(c == ';' ? ':' : c < ' ' || c == 0x7f ? ' ' : (char)c, fp);
	}
}

/* A key that is not a stack, as text (dt_print_datum without padding), as a frame. */
static void fold_datum(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *r, const uint8_t *key,
		       bool *first)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (r->r_kind == DT_RK_STR) { /* as it is, empty or not */
		fold_frame(fp, (const char *)key + r->r_off,
			   strnlen((const char *)key + r->r_off, r->r_size), first);
		return;
	}
	if ((mem = open_memstream(&buf, &len)) == NULL)
		return;
	dt_print_datum(dtp, mem, r, key, true, 0);
	if (fclose(mem) == 0)
		fold_frame(fp, buf, len, first);
	free(buf);
}

static int64_t fold_value(const dt_agg_t *ag, const uint64_t *v, uint64_t normal)
{
	int64_t n = 0;

	if (ag->ag_fn < DT_AGG_QUANTIZE)
		return scalar(ag, v, normal);
	for (uint32_t i = 0; i < ag->ag_nbuckets; i++)
		n += (int64_t)v[1 + i];
	return n / (int64_t)(normal ? normal : 1);
}

static int fold_cmp(const void *pa, const void *pb)
{
	return strcmp(((const fold_line_t *)pa)->fl_stack, ((const fold_line_t *)pb)->fl_stack);
}

/* A stack key's frames, root first (the record holds them innermost first); kernel ones "_[k]". */
static void fold_stack(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *r, const uint8_t *key,
		       bool *first)
{
	const uint8_t *p = key + r->r_off;
	bool kernel = r->r_sym == DT_B_STACK;
	uint64_t pid = 0, pc;
	uint32_t n = 0;
	char buf[PATH_MAX + 64];

	if (!kernel) {
		memcpy(&pid, p, 8);
		p += 8;
	}
	for (; n < r->r_nframes; n++) {
		memcpy(&pc, p + 8 * n, 8);
		if (pc == 0)
			break;
	}
	while (n-- > 0) {
		dt_usym_t u;

		memcpy(&pc, p + 8 * n, 8);
		if (dt_frame_lookup(dtp, (pid_t)pid, pc, n > 0, &u) != 0)
			snprintf(buf, sizeof(buf), "0x%" PRIx64 "%s", pc, kernel ? "_[k]" : "");
		else if (u.us_name == NULL)
			snprintf(buf, sizeof(buf), "%s`0x%" PRIx64 "%s", u.us_mod, pc,
				 kernel ? "_[k]" : "");
		else
			snprintf(buf, sizeof(buf), "%s`%s%s", u.us_mod, u.us_name,
				 kernel ? "_[k]" : "");
		fold_frame(fp, buf, strlen(buf), first);
	}
}

/* One entry's frames, root first, on fp: the keys that are not stacks, user stacks, kernel stacks. */
static void fold_entry(dtrace_hdl_t *dtp, FILE *fp, const dt_agg_t *ag, const uint8_t *key)
{
	bool first = true;

	for (int k = 0; k < ag->ag_nkeys; k++)
		if (ag->ag_keys[k].r_kind != DT_RK_STACK)
			fold_datum(dtp, fp, &ag->ag_keys[k], key, &first);
	for (int k = 0; k < ag->ag_nkeys; k++)
		if (ag->ag_keys[k].r_kind == DT_RK_STACK && ag->ag_keys[k].r_sym != DT_B_STACK)
			fold_stack(dtp, fp, &ag->ag_keys[k], key, &first);
	for (int k = 0; k < ag->ag_nkeys; k++)
		if (ag->ag_keys[k].r_kind == DT_RK_STACK && ag->ag_keys[k].r_sym == DT_B_STACK)
			fold_stack(dtp, fp, &ag->ag_keys[k], key, &first);
	if (first) /* no key: the aggregation's name is its one frame */
		fprintf(fp, "@%s", ag->ag_name);
}

static int print_folded(dtrace_hdl_t *dtp, FILE *fp, const dt_aggview_t *av)
{
	const dt_agg_t *ag = av->av_ag;
	const dt_asnap_t *s = av->av_snap != NULL ? av->av_snap : &g_empty;
	fold_line_t *ln = calloc(s->as_n ? s->as_n : 1, sizeof(*ln));
	size_t n = 0;
	int rc = 0;

	if (ln == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (; n < s->as_n; n++) {
		size_t len = 0;
		FILE *mem = open_memstream(&ln[n].fl_stack, &len);

		if (mem == NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		fold_entry(dtp, mem, ag, s->as_keys + n * ag->ag_keysize);
		if (fclose(mem) != 0) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			n++;
			break;
		}
		ln[n].fl_value = fold_value(ag, s->as_vals + n * nslots(ag), av->av_normal);
	}
	if (rc == 0) {
		qsort(ln, n, sizeof(*ln), fold_cmp);
		for (size_t i = 0; i < n; i++) {
			int64_t v = ln[i].fl_value;

			while (i + 1 < n && strcmp(ln[i].fl_stack, ln[i + 1].fl_stack) == 0)
				v += ln[++i].fl_value;
			fprintf(fp, "%s %lld\n", ln[i].fl_stack, (long long)v);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(ln[i].fl_stack);
	free(ln);
	return rc;
}

/* ---------------------------------------------------------------- agghist, aggpack */

/*
 * -x agghist draws count(), sum(), avg() and stddev() as one histogram,
 * a row per key; -x aggpack prints each quantize() and lquantize() on one
 * line.  As illumos (dt_aggregate_total, dt_aggregate_minmaxbin and
 * dt_print_datum), the rows share one scale per aggregation and a header
 * before the first.
 */

/* dtrace_aggdata's dtada_total and its flags, for agghist */
typedef struct histtotal {
	long double ht_total;
	bool ht_pos, ht_neg;
} histtotal_t;

/* The key columns' width in a packed or histogram header: each key's width and a space. */
static int packed_keywidth(const dt_agg_t *ag)
{
	int width = 0;

	for (int k = 0; k < ag->ag_nkeys; k++) {
		const dt_rec_t *r = &ag->ag_keys[k];
		int w = 16; /* 8 bytes, and anything not an integer */

		if (r->r_kind == DT_RK_INT && r->r_size == 4)
			w = 8;
		else if (r->r_kind == DT_RK_INT && r->r_size == 2)
			w = 5;
		else if (r->r_kind == DT_RK_INT && r->r_size == 1)
			w = 3;
		width += w + 1;
	}
	return width;
}

/*
 * The value agghist measures an entry by (dt_aggregate_total): count and
 * sum their values, avg its mean, stddev its deviation.  illumos draws the
 * bar from the first word of the data (dt_print_datum asserts count or
 * sum), which for avg() and stddev() is the count of values: a bar longer
 * than the scale, read past its strings.  Here their bar is the measure.
 */
static int64_t hist_measure(const dt_agg_t *ag, const uint64_t *v)
{
	switch (ag->ag_fn) {
	case DT_AGG_COUNT: return (int64_t)v[0];
	case DT_AGG_SUM: return (int64_t)v[1];
	case DT_AGG_AVG: return v[0] ? (int64_t)v[1] / (int64_t)v[0] : 0;
	default: return (int64_t)stddev(v, 1);
	}
}

static void hist_total(dtrace_hdl_t *dtp, const dt_agg_t *ag, const dt_asnap_t *s, histtotal_t *t)
{
	bool zoom = dt_option_isset(dtp, "aggzoom");

	*t = (histtotal_t){ 0, false, false };
	for (size_t e = 0; e < s->as_n; e++) {
		int64_t val = hist_measure(ag, s->as_vals + e * nslots(ag));

		t->ht_pos |= val > 0;
		if (val < 0) {
			t->ht_neg = true;
			val = -val;
		}
		if (zoom) {
			val = (int64_t)((long double)val * (1 / DT_AGGZOOM_MAX));
			if ((long double)val > t->ht_total)
				t->ht_total = (long double)val;
		} else {
			t->ht_total += (long double)val;
		}
	}
}

/* dt_ndigits: the columns of a bucket's label in a packed header, at least 4. */
static int ndigits(long long val)
{
	int rval = 1;
	long long cmp = 10;

	if (val < 0) {
		val = val == INT64_MIN ? INT64_MAX : -val;
		rval++;
	}
	while (val > cmp && cmp > 0) {
		rval++;
		cmp *= 10;
	}
	return rval < 4 ? 4 : rval;
}

/*
 * Whether packed histograms use the block elements: as -x encoding says,
 * else unless TERM names a terminal that cannot show them (sun, sun-color,
 * dumb).  illumos reads an unset TERM as a null string; it is ASCII here.
 */
static bool packed_utf8(const dtrace_hdl_t *dtp)
{
	const char *term;

	switch (encoding(dtp)) {
	case DT_ENC_ASCII: return false;
	case DT_ENC_UTF8: return true;
	default:
		term = getenv("TERM");
		return term != NULL && strcmp(term, "sun") != 0 && strcmp(term, "sun-color") != 0 &&
		       strcmp(term, "dumb") != 0;
	}
}

/* dt_print_packed: one bucket as one character, scaled against total. */
static void packed_cell(FILE *fp, long double datum, long double total, bool utf8)
{
	static const char ascii[] = "__xxxxXX", neg[] = "vvvvVV";

	if (datum == 0) {
		fputc(' ', fp);
		return;
	}
	if (datum < 0) {
		long double val = fabsl(datum * (long double)(sizeof(neg) - 2)) / total;

		fputc(neg[(unsigned)(val + 0.5L)], fp);
		return;
	}
	if (utf8) {
		put_utf8(fp, 0x2581 + (unsigned)(datum * 7 / total + 0.5L));
		return;
	}
	fputc(ascii[(unsigned)(datum * (long double)(sizeof(ascii) - 2) / total + 0.5L)], fp);
}

/* dt_aggregate_minmaxbin for quantize: the buckets any entry uses, then one more each side. */
static void packed_range(const dt_agg_t *ag, const dt_asnap_t *s, uint32_t *min, uint32_t *max)
{
	int lo = -1, hi = -1;

	if (ag->ag_fn == DT_AGG_LQUANTIZE) { /* always every bucket */
		*min = 0;
		*max = ag->ag_nbuckets - 1;
		return;
	}
	for (size_t e = 0; e < s->as_n; e++) {
		const int64_t *b = (const int64_t *)(s->as_vals + e * nslots(ag) + 1);

		for (int i = 0; i < (int)ag->ag_nbuckets; i++) {
			if (b[i] == 0)
				continue;
			if (lo == -1 || i < lo)
				lo = i;
			if (i > hi)
				hi = i;
		}
	}
	if (lo == -1)
		lo = hi = DT_QUANTIZE_ZERO;
	if (lo != 0 && lo != DT_QUANTIZE_ZERO)
		lo--;
	if (hi < DT_QUANTIZE_NBUCKETS - 1)
		hi++;
	*min = (uint32_t)lo;
	*max = (uint32_t)hi;
}

/* dt_print_quanthdr_packed */
static void packed_header(FILE *fp, const dt_agg_t *ag, uint32_t min, uint32_t max)
{
	int width = packed_keywidth(ag), minwidth = 7, maxwidth = 8;

	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		minwidth = ndigits((long long)qbucket_value((int)min));
		maxwidth = ndigits((long long)qbucket_value((int)max));
	}
	fprintf(fp, "\n%*s %*s .", width, width > 0 ? "key" : "", minwidth, "min");
	for (uint32_t i = min; i <= max; i++)
		fputc('-', fp);
	fprintf(fp, ". %*s | count\n", -maxwidth, "max");
}

/* dt_print_quantize_packed and dt_print_lquantize_packed: one entry's row. */
static void packed_row(FILE *fp, const dt_agg_t *ag, const uint64_t *v, uint32_t min, uint32_t max,
		       bool zoom, bool utf8)
{
	const int64_t *b = (const int64_t *)(v + 1);
	long double total = 0, count = 0;
	char c[32];

	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		long long minval = (long long)qbucket_value((int)min);

		fprintf(fp, " %*lld :", ndigits(minval), minval);
	} else {
		snprintf(c, sizeof(c), "< %d", (int)ag->ag_args[0]);
		fprintf(fp, "%8s :", c);
	}
	for (uint32_t i = min; i <= max; i++) {
		quantize_total(zoom, b[i], &total);
		count += (long double)b[i];
	}
	for (uint32_t i = min; i <= max; i++)
		packed_cell(fp, (long double)b[i], total, utf8);
	if (ag->ag_fn == DT_AGG_QUANTIZE) {
		long long maxval = (long long)qbucket_value((int)max);

		fprintf(fp, ": %*lld | %lld\n", -ndigits(maxval), maxval, (long long)count);
	} else {
		snprintf(c, sizeof(c), ">= %d",
			 (int)(ag->ag_args[0] + ag->ag_args[1] * ag->ag_args[2]));
		fprintf(fp, ": %-8s | %lld\n", c, (long long)count);
	}
}

/*
 * Lines of integers without stdio's formatting: an aggregation of a
 * million entries printed by fprintf spent most of its printing parsing
 * formats.  Lines collect in ob_buf and leave by fwrite.
 */
typedef struct outbuf {
	FILE *ob_fp;
	size_t ob_len;
	char ob_buf[1 << 16];
} outbuf_t;

static void ob_flush(outbuf_t *ob)
{
	if (ob->ob_len > 0)
		(void)fwrite(ob->ob_buf, 1, ob->ob_len, ob->ob_fp);
	ob->ob_len = 0;
}

/* v as printf's "%*lld" (or "%*llu" if uns) with width w, at p: past its end. */
static char *put_int(char *p, int w, int64_t v, bool uns)
{
	char d[24], *q = d + sizeof(d);
	uint64_t u = uns || v >= 0 ? (uint64_t)v : -(uint64_t)v;
	int len;

	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (!uns && v < 0)
		*--q = '-';
	len = (int)(d + sizeof(d) - q);
	for (; w > len; w--)
		*p++ = ' ';
	memcpy(p, q, (size_t)len);
	return p + len;
}

/*
 * Whether print_line can print ag's entries: keys that are integers (the
 * others print through dt_print_datum) and a value that is one number.
 */
static bool line_fast(const dt_agg_t *ag)
{
	if (ag->ag_fn >= DT_AGG_QUANTIZE)
		return false;
	for (int k = 0; k < ag->ag_nkeys; k++)
		if (ag->ag_keys[k].r_kind != DT_RK_INT)
			return false;
	return true;
}

/*
 * One entry as dt_print_datum prints its integer keys (not quiet: " %16lld",
 * " %8d", " %5d", " %3d" by size) and print_value its value, and a newline.
 */
static void print_line(outbuf_t *ob, const dt_agg_t *ag, const uint8_t *key, int64_t val)
{
	char *p;

	if (sizeof(ob->ob_buf) - ob->ob_len < (size_t)(ag->ag_nkeys + 1) * 24 + 1)
		ob_flush(ob);
	p = ob->ob_buf + ob->ob_len;
	for (int k = 0; k < ag->ag_nkeys; k++) {
		const dt_rec_t *r = &ag->ag_keys[k];
		int64_t x;

		memcpy(&x, key + r->r_off, 8);
		*p++ = ' ';
		switch (r->r_size) {
		case 8: p = put_int(p, 16, x, false); break;
		case 4: p = put_int(p, 8, (int32_t)(uint32_t)x, false); break;
		case 2: p = put_int(p, 5, (uint16_t)x, false); break;
		default: p = put_int(p, 3, (uint8_t)x, false); break;
		}
	}
	*p++ = ' ';
	p = put_int(p, 16, val, ag->ag_fn == DT_AGG_STDDEV);
	*p++ = '\n';
	ob->ob_len = (size_t)(p - ob->ob_buf);
}

/* The value print_line prints: stddev()'s unsigned. */
static int64_t line_value(const dt_agg_t *ag, const uint64_t *v, uint64_t normal)
{
	return ag->ag_fn == DT_AGG_STDDEV ? (int64_t)stddev(v, normal) : scalar(ag, v, normal);
}

/*
 * print_agg's plain lines straight from the sort's records, where they hold
 * the key and the value as printed (one integer key, no normalize()): the
 * snapshot is not read again in the sorted order, a cache miss an entry.
 * false where it cannot.
 */
static bool print_recs(dtrace_hdl_t *dtp, FILE *fp, const dt_aggview_t *av)
{
	const dt_agg_t *ag = av->av_ag;
	const dt_rec_t *k0 = &ag->ag_keys[0];
	sortctx_t sc = { ag, av->av_snap, 1, false, 0 };
	size_t n = av->av_snap->as_n;
	uint8_t key[64] = { 0 };
	sortrec_t *a;
	outbuf_t *ob;

	if (av->av_normal > 1 || !intkey(ag) || k0->r_off + 8 > sizeof(key))
		return false;
	sort_options(dtp, &sc);
	if ((ob = malloc(sizeof(*ob))) == NULL)
		return false;
	if ((a = sort_recs(&sc)) == NULL) {
		free(ob);
		return false;
	}
	ob->ob_fp = fp;
	ob->ob_len = 0;
	for (size_t e = 0; e < n; e++) {
		const sortrec_t *r = &a[sc.sc_rev < 0 ? n - 1 - e : e];
		uint64_t k = sc.sc_keyfirst ? r->sr_hi : r->sr_lo;
		uint64_t v = sc.sc_keyfirst ? r->sr_lo : r->sr_hi;

		memcpy(key + k0->r_off, &k, 8);
		print_line(ob, ag, key,
			   (int64_t)(ag->ag_fn == DT_AGG_STDDEV ? v : v ^ (1ULL << 63)));
	}
	ob_flush(ob);
	free(ob);
	free(a);
	return true;
}

static int walk_agg(dtrace_hdl_t *dtp, const dt_aggview_t *av, dt_recmem_t *mem,
		    dtrace_aggwalk_f *f, void *arg);

/*
 * A quantization's rows from the walk's data (dt_print_quantize and its
 * kin): each bucket's label from its range (lo; a negative quantize()
 * bucket's hi; "< N" and ">= N" for lquantize's and llquantize's open
 * ends), its bar scaled to the buckets' counts before normalize(), as
 * quantize_rows does.
 */
static void bucket_rows(dtrace_hdl_t *dtp, FILE *fp, const dtrace_aggdata_t *a)
{
	long double total = 0;
	bool pos = false, neg = false, zoom = dt_option_isset(dtp, "aggzoom");
	bool utf8 = encoding(dtp) == DT_ENC_UTF8;
	uint64_t normal = (uint64_t)a->dtada_normal;

	for (unsigned j = 0; j < a->dtada_nbuckets; j++) {
		pos |= a->dtada_counts[j] > 0;
		neg |= a->dtada_counts[j] < 0;
		quantize_total(zoom, a->dtada_counts[j], &total);
	}
	fprintf(fp, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
		"count");
	for (unsigned j = 0; j < a->dtada_nbuckets; j++) {
		const dtrace_aggbucket_t *b = &a->dtada_buckets[j];
		char c[32];

		if (a->dtada_kind == DTRACE_AGG_QUANTIZE) {
			fprintf(fp, "%16lld ",
				(long long)(b->dtab_lo >= 0 ? b->dtab_lo : b->dtab_hi));
		} else if (b->dtab_lo == INT64_MIN || b->dtab_hi == INT64_MAX) {
			bool below = b->dtab_lo == INT64_MIN;
			int64_t edge = below ? b->dtab_hi + 1 : b->dtab_lo;

			if (a->dtada_kind == DTRACE_AGG_LQUANTIZE)
				snprintf(c, sizeof(c), "%s %d", below ? "<" : ">=", (int)edge);
			else
				snprintf(c, sizeof(c), "%s %lld",
					 below ? "<" : ">=", (long long)edge);
			fprintf(fp, "%16s ", c);
		} else if (a->dtada_kind == DTRACE_AGG_LQUANTIZE) {
			fprintf(fp, "%16d ", (int)b->dtab_lo);
		} else {
			fprintf(fp, "%16lld ", (long long)b->dtab_lo);
		}
		quantline(fp, a->dtada_counts[j], normal, total, pos, neg, utf8);
	}
}

typedef struct textwalk {
	dtrace_hdl_t *tw_dtp;
	FILE *tw_fp;
} textwalk_t;

/* One entry of the walk as dt_print_aggs prints it: its keys, then its value or its rows. */
static int text_aggdata(const dtrace_aggdata_t *a, void *arg)
{
	textwalk_t *tw = arg;

	for (unsigned k = 0; k < a->dtada_nkeys; k++)
		dt_print_rec(tw->tw_dtp, tw->tw_fp, &a->dtada_keys[k], false, -50);
	if (a->dtada_kind >= DTRACE_AGG_QUANTIZE)
		bucket_rows(tw->tw_dtp, tw->tw_fp, a);
	else if (a->dtada_kind == DTRACE_AGG_STDDEV)
		fprintf(tw->tw_fp, " %16llu", (unsigned long long)a->dtada_value);
	else
		fprintf(tw->tw_fp, " %16lld", (long long)a->dtada_value);
	fputc('\n', tw->tw_fp);
	return 0;
}

/*
 * Every entry of one aggregation, as dt_print_aggs prints it (or in JSON).
 * JSON and the text of any entry (keys that are not all integers,
 * quantizations) are clients of the aggregation walk (walk_agg); agghist,
 * aggpack and the rows of integer keys and values (print_recs,
 * print_line: the common case, formatted straight from the sorted
 * snapshot for speed) read the snapshot themselves.
 */
static int print_agg(dtrace_hdl_t *dtp, FILE *fp, const dt_aggview_t *av)
{
	const dt_agg_t *ag = av->av_ag;
	const dt_asnap_t *s = av->av_snap != NULL ? av->av_snap : &g_empty;
	size_t *ix;
	bool json = dtp->dt_run->r_dr.dr_json;
	bool hist = !json && dt_option_isset(dtp, "agghist") && ag->ag_fn != DT_AGG_MIN &&
		    ag->ag_fn != DT_AGG_MAX && ag->ag_fn < DT_AGG_QUANTIZE;
	bool pack = !json && !hist && dt_option_isset(dtp, "aggpack") &&
		    (ag->ag_fn == DT_AGG_QUANTIZE || ag->ag_fn == DT_AGG_LQUANTIZE);
	bool zoom = dt_option_isset(dtp, "aggzoom"), utf8 = false;
	histtotal_t ht = { 0 };
	uint32_t min = 0, max = 0;
	int width = hist || pack ? 16 : -50;

	if (dtp->dt_run->r_dr.dr_folded)
		return print_folded(dtp, fp, av);
	if (json) { /* a client of the walk: the entries as dtrace_aggregate_walk() gives them */
		dt_recmem_t mem = { 0 };
		int rc = walk_agg(dtp, av, &mem, dt_json_aggdata, fp);

		dt_recmem_fini(&mem);
		return rc;
	}
	if (!json && !hist && !pack && s->as_n > 1 && line_fast(ag) && print_recs(dtp, fp, av))
		return 0;
	if (!hist && !pack && (s->as_n == 0 || !line_fast(ag))) {
		textwalk_t tw = { .tw_dtp = dtp, .tw_fp = fp };
		dt_recmem_t mem = { 0 };
		int rc = walk_agg(dtp, av, &mem, text_aggdata, &tw);

		dt_recmem_fini(&mem);
		return rc;
	}
	if ((ix = sorted(dtp, ag, s, 1, true)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (hist)
		hist_total(dtp, ag, s, &ht);
	if (pack) {
		packed_range(ag, s, &min, &max);
		utf8 = packed_utf8(dtp);
	}
	if (!json && !hist && !pack && s->as_n > 0 && line_fast(ag)) {
		outbuf_t *ob = malloc(sizeof(*ob));

		if (ob != NULL) {
			ob->ob_fp = fp;
			ob->ob_len = 0;
			for (size_t e = 0; e < s->as_n; e++)
				print_line(
				    ob, ag, s->as_keys + ix[e] * ag->ag_keysize,
				    line_value(ag, s->as_vals + ix[e] * nslots(ag), av->av_normal));
			ob_flush(ob);
			free(ob);
			free(ix);
			return 0;
		}
	}
	for (size_t e = 0; e < s->as_n; e++) {
		const uint8_t *key = s->as_keys + ix[e] * ag->ag_keysize;
		const uint64_t *v = s->as_vals + ix[e] * nslots(ag);

		if (e == 0 && hist) {
			int kw = packed_keywidth(ag);

			fprintf(fp, "\n%*s %41s %-9s\n", kw ? kw : 16, kw ? "key" : "value",
				"------------- Distribution -------------", "count");
		} else if (e == 0 && pack) {
			packed_header(fp, ag, min, max);
		}
		for (int k = 0; k < ag->ag_nkeys; k++)
			dt_print_datum(dtp, fp, &ag->ag_keys[k], key, false, width);
		if (hist) {
			fputc(' ', fp);
			quantline(fp, hist_measure(ag, v), av->av_normal, ht.ht_total, ht.ht_pos,
				  ht.ht_neg, encoding(dtp) == DT_ENC_UTF8);
			continue;
		}
		if (pack) {
			packed_row(fp, ag, v, min, max, zoom, utf8);
			continue;
		}
		print_value(dtp, fp, ag, v, av->av_normal);
		fputc('\n', fp);
	}
	free(ix);
	return 0;
}

/* ---------------------------------------------------------------- actions */

static dt_aggview_t *agg_by_id(dt_run_t *r, uint32_t id)
{
	return id >= 1 && id <= r->r_dr.dr_naggs ? &r->r_dr.dr_aggs[id - 1] : NULL;
}

/* printa(@a) without a format: a blank line, then @a as at exit. */
int dt_agg_printa(dtrace_hdl_t *dtp, FILE *fp, const dt_act_t *act, const dt_rec_t *recs,
		  const uint8_t *data)
{
	dt_run_t *r = dtp->dt_run;
	dt_aggview_t *ag = act->a_naggs > 0 ? agg_by_id(r, act->a_aggs[0]) : NULL;

	(void)recs;
	(void)data;
	if (ag == NULL)
		return 0;
	if (snap_ids(dtp, r, act->a_aggs, act->a_naggs) != 0)
		return -1;
	for (int i = 0; i < act->a_naggs; i++) {
		dt_aggview_t *a = agg_by_id(r, act->a_aggs[i]);

		if (a != NULL)
			a->av_printed = true;
	}
	if (r->r_dr.dr_json || r->r_dr.dr_folded) { /* a format is presentation: the entries */
		for (int i = 0; i < act->a_naggs; i++) {
			dt_aggview_t *a = agg_by_id(r, act->a_aggs[i]);

			if (a != NULL && print_agg(dtp, fp, a) != 0)
				return -1;
		}
		return 0;
	}
	/*
	 * Without a format, illumos dt_consume_cpu prints a blank line, then
	 * one aggregation as at exit, or several joined by key
	 * (dtrace_aggregate_walk_joined, dt_print_aggs): a row per key, each
	 * aggregation's value in its own column.
	 */
	if (act->a_fmt == NULL) {
		fputc('\n', fp);
		if (act->a_naggs == 1)
			return print_agg(dtp, fp, ag);
	}
	return dt_agg_printa_fmt(dtp, fp, act);
}

/* Zero (clear) or delete (trunc) the kernel's entries of @a not kept. */
static int drop_entries(dtrace_hdl_t *dtp, dt_run_t *r, dt_aggview_t *av, bool del, int64_t keep)
{
	const dt_agg_t *ag = av->av_ag;
	dt_asnap_t *s;
	size_t *ix = NULL, from = 0;
	uint64_t *zero = NULL, id = ag->ag_id;
	uint8_t *key = NULL;

	if (snap(dtp, r, av, true) != 0) /* the map's own keys, to delete or zero */
		return -1;
	s = av->av_snap;
	if (del && keep != 0) { /* keep the |keep| largest (smallest if negative) */
		if ((ix = sorted(dtp, ag, s, keep > 0 ? -1 : 1, false)) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		from = (size_t)(keep > 0 ? keep : -keep);
	}
	if ((!del && (zero = calloc((size_t)r->r_ld.ld_ncpus, ag->ag_valsize)) == NULL) ||
	    (key = malloc(DT_AGG_IDSIZE + ag->ag_keysize)) == NULL) {
		free(ix);
		free(zero);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	memcpy(key, &id, DT_AGG_IDSIZE); /* the map's key: the id, then the keys */
	for (size_t e = from; e < s->as_n; e++) {
		memcpy(key + DT_AGG_IDSIZE, s->as_keys + (ix != NULL ? ix[e] : e) * ag->ag_keysize,
		       ag->ag_keysize);
		if (del)
			(void)ks_map_delete(av->av_fd, key);
		else
			(void)ks_map_update(av->av_fd, key, zero, BPF_EXIST);
	}
	free(ix);
	free(zero);
	free(key);
	dt_agg_snap_free(av); /* stale now; every reader snaps afresh */
	return 0;
}

int dt_agg_libact(dtrace_hdl_t *dtp, const dt_act_t *act, const dt_rec_t *recs, const uint8_t *data)
{
	dt_run_t *r = dtp->dt_run;
	dt_aggview_t *ag = act->a_naggs > 0 ? agg_by_id(r, act->a_aggs[0]) : NULL;
	int64_t n = 0;

	if (ag == NULL)
		return 0;
	if (act->a_nrecs > 0)
		memcpy(&n, data + recs[act->a_rec].r_off, 8);
	switch (act->a_kind) {
	case DT_A_CLEAR: return drop_entries(dtp, r, ag, false, 0);
	case DT_A_TRUNC: return drop_entries(dtp, r, ag, true, n);
	case DT_A_NORMALIZE: ag->av_normal = n > 0 ? (uint64_t)n : 1; return 0;
	case DT_A_DENORMALIZE: ag->av_normal = 1; return 0;
	default: return 0;
	}
}

/* ---------------------------------------------------------------- at exit */

/* Every aggregation in dtrace(1)'s order; only those printa did not print unless all. */
static int print_aggs(dtrace_hdl_t *dtp, FILE *fp, bool all)
{
	dt_run_t *r;
	int *fds;
	uint32_t nfds = 0;

	if (dtp == NULL)
		return -1;
	if ((r = dtp->dt_run) == NULL)
		return 0;
	if (fp == NULL)
		fp = stdout;
	/* a snapshot of each shape that has an aggregation to print: its map read once */
	if ((fds = malloc((r->r_ld.ld_nshapes + 1) * sizeof(int))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < r->r_dr.dr_naggs; i++) {
		dt_aggview_t *ag = &r->r_dr.dr_aggs[i];
		uint32_t j = 0;

		if (ag->av_printed && !all)
			continue;
		while (j < nfds && fds[j] != ag->av_fd)
			j++;
		if (j < nfds)
			continue;
		if (nfds <= r->r_ld.ld_nshapes)
			fds[nfds++] = ag->av_fd;
		if (snap(dtp, r, ag, false) != 0) {
			free(fds);
			return -1;
		}
	}
	free(fds);
	for (uint32_t i = 0; i < r->r_dr.dr_naggs; i++) {
		uint32_t id = dt_option_get(dtp, "aggsortrev", 0) ? r->r_dr.dr_naggs - i : i + 1;
		dt_aggview_t *ag = &r->r_dr.dr_aggs[id - 1];

		if (ag->av_printed && !all)
			continue;
		if (print_agg(dtp, fp, ag) != 0)
			return -1;
	}
	/* a failed write: its errno (the flush retries what it left), fp's error flag kept */
	errno = 0;
	if (fflush(fp) == EOF || ferror(fp))
		return dt_set_errno(dtp, errno != 0 ? errno : EIO);
	return 0;
}

int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp)
{
	return print_aggs(dtp, fp, false);
}

int dtrace_aggregate_write(dtrace_hdl_t *dtp, FILE *fp)
{
	return print_aggs(dtp, fp, true);
}

/* ---------------------------------------------------------------- printa with a format */

/* The entry of key in snapshot s (sorted by key bytes in kix), or -1. */
static long find_key(const dt_agg_t *ag, const dt_asnap_t *s, const size_t *kix, const uint8_t *key)
{
	size_t lo = 0, hi = s->as_n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = memcmp(s->as_keys + kix[mid] * ag->ag_keysize, key, ag->ag_keysize);

		if (c == 0)
			return (long)kix[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Entries by their keys' bytes (arg: the aggregation's snapshot), for find_key. */
static int bytecmp(const void *pa, const void *pb, void *arg)
{
	const dt_aggview_t *av = arg;
	const dt_asnap_t *s = av->av_snap;
	size_t ks = av->av_ag->ag_keysize;

	return memcmp(s->as_keys + *(const size_t *)pa * ks, s->as_keys + *(const size_t *)pb * ks,
		      ks);
}

/* A bundle: one key, and each aggregation's value there (zeros where it has none). */
typedef struct bundle {
	const uint8_t *b_key;
	const uint64_t **b_vals;
} bundle_t;

typedef struct bundlesort {
	const dt_agg_t *const *ags;
	int n, pos, rev;
	bool keyfirst;
	int keypos;
} bundlesort_t;

static int bundlecmp(const void *pa, const void *pb, void *arg)
{
	const bundle_t *a = pa, *b = pb;
	const bundlesort_t *t = arg;
	int c = 0;

	if (t->keyfirst)
		c = keycmp(t->ags[0], t->keypos, a->b_key, b->b_key);
	for (int i = 0; i < t->n && c == 0; i++) {
		int j = (t->pos + i) % t->n;

		c = valcmp(t->ags[j], a->b_vals[j], b->b_vals[j]);
	}
	if (c == 0 && !t->keyfirst)
		c = keycmp(t->ags[0], t->keypos, a->b_key, b->b_key);
	return c * t->rev;
}

/* Print one entry through the format: conversions with '@' take values, others keys. */
static void print_bundle(dtrace_hdl_t *dtp, FILE *fp, const char *fmt,
			 const dt_aggview_t *const *avs, int nags, const bundle_t *b, uint8_t *buf)
{
	const dt_agg_t *ags[DT_MAXPROBEARGS + 1];

	for (int i = 0; i < nags && i <= DT_MAXPROBEARGS; i++)
		ags[i] = avs[i]->av_ag;
	const dt_agg_t *ag0 = ags[0];
	int key = 0, cur = 0;
	const char *p = fmt;

	memcpy(buf, b->b_key, ag0->ag_keysize);
	while (*p != '\0') {
		const char *start = p, *conv;
		char spec[256];
		size_t len;
		bool at = false;
		int stars = 0;
		dt_rec_t recs[4];
		int nr = 0;

		/* the literal text up to the next conversion */
		while (*p != '\0' && !(*p == '%' && p[1] != '%')) {
			if (*p == '%')
				p++;
			fputc(*p++, fp);
		}
		if (*p == '\0')
			break;
		start = p++;
		while (*p != '\0' && strchr("#0- +'@123456789.*hlLwjzt?", *p) != NULL) {
			at |= *p == '@';
			stars += *p == '*';
			p++;
		}
		conv = p;
		if (*p != '\0')
			p++;
		len = 0;
		for (const char *q = start; q < p && len + 1 < sizeof(spec); q++)
			if (*q != '@')
				spec[len++] = *q;
		spec[len] = '\0';
		for (int s = 0; s < stars && key < ag0->ag_nkeys && nr < 3; s++)
			recs[nr++] = ag0->ag_keys[key++];
		if (at) {
			const dt_agg_t *ag = ags[cur];
			const uint64_t *v = b->b_vals[cur];
			uint64_t normal = avs[cur]->av_normal;
			int64_t x;

			if (cur < nags - 1)
				cur++;
			if (ag->ag_fn >= DT_AGG_QUANTIZE) {
				print_quantize(dtp, fp, ag, v, normal);
				continue;
			}
			x = ag->ag_fn == DT_AGG_STDDEV ? (int64_t)stddev(v, normal)
						       : scalar(ag, v, normal);
			memcpy(buf + ag0->ag_keysize, &x, 8);
			recs[nr++] = (dt_rec_t){ .r_off = ag0->ag_keysize,
						 .r_size = 8,
						 .r_kind = DT_RK_INT,
						 .r_signed = ag->ag_fn != DT_AGG_COUNT &&
							     ag->ag_fn != DT_AGG_STDDEV };
		} else if (key < ag0->ag_nkeys) {
			recs[nr++] = ag0->ag_keys[key++];
		} else if (*conv != '\0') {
			continue; /* the checker matched conversions to keys: not reached */
		}
		dt_print_printf(dtp, fp, spec, recs, nr, buf);
	}
}

int dt_agg_printa_fmt(dtrace_hdl_t *dtp, FILE *fp, const dt_act_t *act)
{
	dt_run_t *r = dtp->dt_run;
	int n = act->a_naggs, rc = 0;
	const dt_agg_t **ags = calloc((size_t)n, sizeof(*ags));
	const dt_aggview_t **avs = calloc((size_t)n, sizeof(*avs));
	size_t **kix = calloc((size_t)n, sizeof(*kix));
	uint64_t *zero = NULL;
	bundle_t *bs = NULL;
	const uint64_t **vals = NULL;
	uint8_t *buf = NULL;
	size_t nb = 0, total = 0;

	if (ags == NULL || avs == NULL || kix == NULL)
		goto nomem;
	for (int i = 0; i < n; i++) {
		const dt_asnap_t *s;

		if ((avs[i] = agg_by_id(r, act->a_aggs[i])) == NULL)
			goto out;
		ags[i] = avs[i]->av_ag;
		s = avs[i]->av_snap != NULL ? avs[i]->av_snap : &g_empty;
		total += s->as_n;
		if ((kix[i] = malloc((s->as_n ? s->as_n : 1) * sizeof(size_t))) == NULL)
			goto nomem;
		for (size_t e = 0; e < s->as_n; e++)
			kix[i][e] = e;
		if (s->as_n > 0)
			qsort_r(kix[i], s->as_n, sizeof(size_t), bytecmp, (void *)avs[i]);
	}
	zero = calloc(1, r->r_en.en_ps->ps_aggzero ? r->r_en.en_ps->ps_aggzero : 8);
	bs = calloc(total ? total : 1, sizeof(*bs));
	vals = calloc((total ? total : 1) * (size_t)n, sizeof(*vals));
	buf = calloc(1, ags[0]->ag_keysize + 8);
	if (zero == NULL || bs == NULL || vals == NULL || buf == NULL)
		goto nomem;
	/* the union of the keys: each key once, at its first aggregation */
	for (int i = 0; i < n; i++) {
		const dt_asnap_t *s = avs[i]->av_snap != NULL ? avs[i]->av_snap : &g_empty;

		for (size_t e = 0; e < s->as_n; e++) {
			const uint8_t *key = s->as_keys + e * ags[i]->ag_keysize;
			bool seen = false;

			for (int j = 0; j < i && !seen; j++)
				seen = avs[j]->av_snap != NULL &&
				       find_key(ags[j], avs[j]->av_snap, kix[j], key) >= 0;
			if (seen)
				continue;
			bs[nb].b_key = key;
			bs[nb].b_vals = vals + nb * (size_t)n;
			for (int j = 0; j < n; j++) {
				const dt_asnap_t *sj = avs[j]->av_snap;
				long at = sj != NULL ? find_key(ags[j], sj, kix[j], key) : -1;

				bs[nb].b_vals[j] =
				    at >= 0 ? sj->as_vals + (size_t)at * nslots(ags[j]) : zero;
			}
			nb++;
		}
	}
	{
		bundlesort_t bsort = { ags,
				       n,
				       (int)(dt_option_get(dtp, "aggsortpos", 0) % (uint64_t)n),
				       dt_option_get(dtp, "aggsortrev", 0) ? -1 : 1,
				       dt_option_get(dtp, "aggsortkey", 0) != 0,
				       (int)dt_option_get(dtp, "aggsortkeypos", 0) };

		qsort_r(bs, nb, sizeof(*bs), bundlecmp, &bsort);
	}
	for (size_t e = 0; e < nb; e++) {
		if (act->a_fmt != NULL) {
			print_bundle(dtp, fp, act->a_fmt, avs, n, &bs[e], buf);
			continue;
		}
		for (int k = 0; k < ags[0]->ag_nkeys; k++) /* dt_print_aggs */
			dt_print_datum(dtp, fp, &ags[0]->ag_keys[k], bs[e].b_key, false, -50);
		for (int i = 0; i < n; i++)
			print_value(dtp, fp, ags[i], bs[e].b_vals[i], avs[i]->av_normal);
		fputc('\n', fp);
	}
	goto out;
nomem:
	rc = dt_set_errno(dtp, EDT_NOMEM);
out:
	for (int i = 0; kix != NULL && i < n; i++)
		free(kix[i]);
	free(kix);
	free(ags);
	free(avs);
	free(zero);
	free(bs);
	free(vals);
	free(buf);
	return rc;
}

/* ---------------------------------------------------------------- dtrace_aggregate_walk */

static const dtrace_aggkind_t agg_kinds[] = {
	[DT_AGG_COUNT] = DTRACE_AGG_COUNT,
	[DT_AGG_SUM] = DTRACE_AGG_SUM,
	[DT_AGG_MIN] = DTRACE_AGG_MIN,
	[DT_AGG_MAX] = DTRACE_AGG_MAX,
	[DT_AGG_AVG] = DTRACE_AGG_AVG,
	[DT_AGG_STDDEV] = DTRACE_AGG_STDDEV,
	[DT_AGG_QUANTIZE] = DTRACE_AGG_QUANTIZE,
	[DT_AGG_LQUANTIZE] = DTRACE_AGG_LQUANTIZE,
	[DT_AGG_LLQUANTIZE] = DTRACE_AGG_LLQUANTIZE,
};

const char *dtrace_aggkind_name(dtrace_aggkind_t kind)
{
	static const char *const names[] = {
		[DTRACE_AGG_COUNT] = "count",
		[DTRACE_AGG_SUM] = "sum",
		[DTRACE_AGG_AVG] = "avg",
		[DTRACE_AGG_MIN] = "min",
		[DTRACE_AGG_MAX] = "max",
		[DTRACE_AGG_STDDEV] = "stddev",
		[DTRACE_AGG_QUANTIZE] = "quantize",
		[DTRACE_AGG_LQUANTIZE] = "lquantize",
		[DTRACE_AGG_LLQUANTIZE] = "llquantize",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}

/* avg() and stddev() not truncated: the same sums as avg's and stddev()'s, in long double. */
static double exact_value(const dt_agg_t *ag, const uint64_t *v, uint64_t normal)
{
	long double n = (long double)v[0], d = normal ? (long double)normal : 1, mean, var;
	u128 sq;

	if (v[0] == 0)
		return 0;
	mean = (long double)(int64_t)v[1] / n;
	if (ag->ag_fn == DT_AGG_AVG)
		return (double)(mean / d);
	sq = (u128)v[3] << 64 | v[2];
	var = (long double)sq / n - mean * mean;
	return (double)(sqrtl(var > 0 ? var : 0) / d);
}

/* One entry as a dtrace_aggdata_t for f: its keys decoded, its value as printed. */
static int walk_entry(dtrace_hdl_t *dtp, const dt_aggview_t *av, const uint8_t *key,
		      const uint64_t *v, dt_recmem_t *mem, dtrace_aggwalk_f *f, void *arg)
{
	const dt_agg_t *ag = av->av_ag;
	int64_t d = av->av_normal ? (int64_t)av->av_normal : 1;
	dtrace_aggdata_t a = { .dtada_size = sizeof(a),
			       .dtada_name = ag->ag_name,
			       .dtada_id = (int)ag->ag_id,
			       .dtada_kind = agg_kinds[ag->ag_fn],
			       .dtada_nkeys = (unsigned)ag->ag_nkeys,
			       .dtada_normal = d };
	dtrace_record_t *keys = NULL;
	int rc;

	if (ag->ag_nkeys > 0 &&
	    (keys = dt_recmem_alloc(mem, (size_t)ag->ag_nkeys * sizeof(*keys))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (int k = 0; k < ag->ag_nkeys; k++)
		dt_rec_decode(dtp, &ag->ag_keys[k], key, "key", &keys[k], mem);
	a.dtada_keys = keys;
	if (ag->ag_fn >= DT_AGG_QUANTIZE) {
		const int64_t *b = (const int64_t *)(v + 1);
		uint32_t first, last;
		dtrace_aggbucket_t *out;
		int64_t *counts;

		quantize_range(ag, b, &first, &last);
		if ((out = dt_recmem_alloc(mem, (last - first + 1) * sizeof(*out))) == NULL ||
		    (counts = dt_recmem_alloc(mem, (last - first + 1) * sizeof(*counts))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		for (uint32_t i = first; i <= last; i++) {
			int64_t lo, hi;
			bool has_lo, has_hi;

			bucket_range(ag, i, &lo, &has_lo, &hi, &has_hi);
			out[i - first] = (dtrace_aggbucket_t){ has_lo ? lo : INT64_MIN,
							       has_hi ? hi : INT64_MAX, b[i] / d };
			counts[i - first] = b[i];
		}
		a.dtada_buckets = out;
		a.dtada_counts = counts;
		a.dtada_nbuckets = last - first + 1;
	} else if (ag->ag_fn == DT_AGG_STDDEV) {
		a.dtada_value = (int64_t)stddev(v, av->av_normal);
		a.dtada_fvalue = exact_value(ag, v, av->av_normal);
	} else {
		a.dtada_value = scalar(ag, v, av->av_normal);
		a.dtada_fvalue = ag->ag_fn == DT_AGG_AVG ? exact_value(ag, v, av->av_normal)
							 : (double)a.dtada_value;
	}
	if (mem->rm_failed)
		return dt_set_errno(dtp, EDT_NOMEM);
	rc = f(&a, arg);
	dt_recmem_reset(mem);
	return rc;
}

/* Every entry of one aggregation's snapshot, as print_agg orders them. */
static int walk_agg(dtrace_hdl_t *dtp, const dt_aggview_t *av, dt_recmem_t *mem,
		    dtrace_aggwalk_f *f, void *arg)
{
	const dt_agg_t *ag = av->av_ag;
	const dt_asnap_t *s = av->av_snap != NULL ? av->av_snap : &g_empty;
	size_t *ix = sorted(dtp, ag, s, 1, true);
	int rc = 0;

	if (ix == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (size_t e = 0; e < s->as_n && rc == 0; e++)
		rc = walk_entry(dtp, av, s->as_keys + ix[e] * ag->ag_keysize,
				s->as_vals + ix[e] * nslots(ag), mem, f, arg);
	free(ix);
	return rc;
}

int dtrace_aggregate_walk(dtrace_hdl_t *dtp, const dtrace_aggwalk_opts_t *o, dtrace_aggwalk_f *f,
			  void *arg)
{
	dtrace_aggwalk_opts_t opts = { .sz = sizeof(opts) };
	dt_run_t *r;
	dt_recmem_t mem = { 0 };
	int rc = 0;

	if (dtp == NULL)
		return -1;
	if (o != NULL) {
		if (dt_opts_valid(dtp, o, sizeof(*o), "dtrace_aggregate_walk") != 0)
			return -1;
		memcpy(&opts, o, o->sz < sizeof(opts) ? o->sz : sizeof(opts));
	}
	if (f == NULL)
		return dt_set_errmsg(dtp, EDT_BADARG, "dtrace_aggregate_walk: no function to call");
	if ((opts.flags & ~DTRACE_AGGWALK_MARK) != 0)
		return dt_set_errmsg(dtp, EDT_BADARG, "dtrace_aggregate_walk: unknown flags 0x%x",
				     (unsigned)opts.flags);
	if ((r = dtp->dt_run) == NULL || r->r_dr.dr_pb == NULL)
		return dt_set_errno(dtp, EDT_NOTRACE);
	if (opts.name != NULL) {
		uint32_t i = 0;

		while (i < r->r_dr.dr_naggs && strcmp(r->r_dr.dr_aggs[i].av_ag->ag_name, opts.name))
			i++;
		if (i == r->r_dr.dr_naggs)
			return dt_set_errmsg(dtp, EDT_BADARG,
					     "dtrace_aggregate_walk: no aggregation @%s",
					     opts.name);
	}
	/* a snapshot of each shape with an aggregation to walk: its map read once */
	for (uint32_t i = 0; i < r->r_dr.dr_naggs; i++) {
		dt_aggview_t *av = &r->r_dr.dr_aggs[i];
		bool done = false;

		if (opts.name != NULL && strcmp(av->av_ag->ag_name, opts.name) != 0)
			continue;
		for (uint32_t j = 0; j < i && !done; j++)
			done = r->r_dr.dr_aggs[j].av_fd == av->av_fd &&
			       (opts.name == NULL ||
				strcmp(r->r_dr.dr_aggs[j].av_ag->ag_name, opts.name) == 0);
		if (!done && snap(dtp, r, av, false) != 0)
			return -1;
	}
	for (uint32_t i = 0; i < r->r_dr.dr_naggs && rc == 0; i++) {
		uint32_t id = dt_option_get(dtp, "aggsortrev", 0) ? r->r_dr.dr_naggs - i : i + 1;
		dt_aggview_t *av = &r->r_dr.dr_aggs[id - 1];

		if (opts.name != NULL && strcmp(av->av_ag->ag_name, opts.name) != 0)
			continue;
		rc = walk_agg(dtp, av, &mem, f, arg);
		if (opts.flags & DTRACE_AGGWALK_MARK)
			av->av_printed = true;
	}
	dt_recmem_fini(&mem);
	return rc;
}
