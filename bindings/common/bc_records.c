/*
 * bc_records.c -- libdtrace's records copied into a queue, and read back
 * (bc_records.h).  Compiled into each binding's module.
 *
 * The queue's entries and values are a tag, a 32-bit length of what
 * follows, then fields; so a reader skips what it does not want (a
 * firing's records, a stack's frames) without knowing their layout.
 * Numbers are in the host's order (the queue never leaves the process);
 * strings are a 32-bit length (UINT32_MAX: none), the bytes and a NUL.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_records.h"

#define NONE UINT32_MAX

/* ---------------------------------------------------------------- writing */

static bool grow(bc_queue_t *q, size_t n);

static inline void put(bc_queue_t *q, const void *p, size_t n)
{
	if (n == 0) /* p may be NULL then (an empty queue appended) */
		return;
	if (__builtin_expect(n > q->cap - q->len || q->failed, 0) && !grow(q, n))
		return;
	memcpy(q->buf + q->len, p, n);
	q->len += n;
}

/* Room for n more bytes; false (and the queue cut back to its last whole entry) if none. */
static bool grow(bc_queue_t *q, size_t n)
{
	if (q->failed)
		return false;
	if (n > q->cap - q->len) {
		size_t cap = q->cap ? q->cap : 4096;
		char *b;

		while (cap - q->len < n)
			cap *= 2;
		if ((b = realloc(q->buf, cap)) == NULL) {
			q->failed = true;
			q->len = q->whole;
			return false;
		}
		q->buf = b;
		q->cap = cap;
	}
	return true;
}

static void put_u8(bc_queue_t *q, uint8_t v)
{
	put(q, &v, 1);
}

static void put_u32(bc_queue_t *q, uint32_t v)
{
	put(q, &v, sizeof(v));
}

static void put_u64(bc_queue_t *q, uint64_t v)
{
	put(q, &v, sizeof(v));
}

static void put_str(bc_queue_t *q, const char *s, size_t n)
{
	if (s == NULL || n >= NONE) {
		put_u32(q, NONE);
		return;
	}
	put_u32(q, (uint32_t)n);
	put(q, s, n);
	put_u8(q, 0);
}

static void put_cstr(bc_queue_t *q, const char *s)
{
	put_str(q, s, s != NULL ? strlen(s) : 0);
}

/* A tag and room for the length of what follows; returns where the length goes. */
static size_t open_item(bc_queue_t *q, char tag)
{
	size_t at;

	put_u8(q, (uint8_t)tag);
	at = q->len;
	put_u32(q, 0);
	return at;
}

static void patch_u32(bc_queue_t *q, size_t at, uint32_t v)
{
	if (!q->failed && at + sizeof(v) <= q->len)
		memcpy(q->buf + at, &v, sizeof(v));
}

static void close_item(bc_queue_t *q, size_t at)
{
	if (!q->failed && at + 4 <= q->len)
		patch_u32(q, at, (uint32_t)(q->len - at - 4));
}

static void end_entry(bc_queue_t *q)
{
	if (!q->failed)
		q->whole = q->len;
}

static void put_names(bc_queue_t *q, const char *const *names, unsigned n)
{
	put_u32(q, names != NULL ? n : 0);
	for (unsigned i = 0; names != NULL && i < n; i++)
		put_cstr(q, names[i]);
}

/*
 * The actions libdtrace names (dtrace.h's dtr_action), by a byte in the
 * queue: code i + 1; 0 is followed by the name itself.  The first
 * NDATA are data (bc_is_data).
 */
static const char *const actions[] = { "trace",	 "tracemem", "printf",	  "print",	 "stack",
				       "ustack", "jstack",   "key",	  "arg",	 "printa",
				       "exit",	 "system",   "freopen",	  "ftruncate",	 "setopt",
				       "clear",	 "trunc",    "normalize", "denormalize", "commit",
				       "discard" };
#define NACTIONS (sizeof(actions) / sizeof(actions[0]))
#define NDATA	 7

/* The commonest D types of a record, by a byte (code i + 1; 0: the name follows). */
static const char *const types[] = { "",
				     "int",
				     "char",
				     "short",
				     "long",
				     "long long",
				     "int8_t",
				     "int16_t",
				     "int32_t",
				     "int64_t",
				     "uint8_t",
				     "uint16_t",
				     "uint32_t",
				     "uint64_t",
				     "unsigned",
				     "unsigned char",
				     "unsigned short",
				     "unsigned long",
				     "unsigned long long",
				     "uintptr_t",
				     "intptr_t",
				     "size_t",
				     "ssize_t",
				     "pid_t",
				     "string",
				     "stack",
				     "_symaddr_t",
				     "_usymaddr_t",
				     "float",
				     "double" };
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* The code of s in names[n] (i + 1), or 0; *hint: the last one found, tried first. */
static uint8_t code_of(const char *const *names, size_t n, const char *s, uint8_t *hint)
{
	if (s == NULL)
		return 0;
	if (*hint != 0 && strcmp(s, names[*hint - 1]) == 0)
		return *hint;
	for (size_t i = 0; i < n; i++)
		if (s[0] == names[i][0] && strcmp(s, names[i]) == 0)
			return *hint = (uint8_t)(i + 1);
	return 0;
}

static void put_type(bc_queue_t *q, const char *t)
{
	uint8_t code = code_of(types, NTYPES, t != NULL ? t : "", &q->hint[1]);

	put_u8(q, code);
	if (code == 0)
		put_cstr(q, t);
}

/* The action's code, or 0 and its name; whether it is data. */
static bool put_action(bc_queue_t *q, const char *a)
{
	uint8_t code = code_of(actions, NACTIONS, a, &q->hint[0]);

	put_u8(q, code);
	if (code == 0)
		put_cstr(q, a != NULL ? a : "");
	return code != 0 && code <= NDATA;
}

/*
 * An integer of a known action and type, the commonest record, in one
 * write: its tag and length, the two codes, width, sign and both values
 * (the layout put_value writes, and bc_read_value reads, for it).
 */
#define INT_BODY 20

static bool put_int(bc_queue_t *q, const dtrace_record_t *rec, uint8_t ac, uint8_t tc)
{
	char b[5 + INT_BODY];
	uint32_t len = INT_BODY;

	b[0] = (char)('0' + DTRACE_REC_INT);
	memcpy(b + 1, &len, 4);
	b[5] = (char)ac;
	b[6] = (char)tc;
	b[7] = (char)rec->dtr_width;
	b[8] = rec->dtr_signed != 0;
	memcpy(b + 9, &rec->dtr_int, 8);
	memcpy(b + 17, &rec->dtr_uint, 8);
	put(q, b, sizeof(b));
	return ac <= NDATA;
}

/* A record; whether it is data. */
static bool put_value(bc_queue_t *q, const dtrace_record_t *rec)
{
	size_t at;
	bool data;

	if (rec->dtr_kind == DTRACE_REC_INT) {
		uint8_t ac = code_of(actions, NACTIONS, rec->dtr_action, &q->hint[0]),
			tc = code_of(types, NTYPES, rec->dtr_type != NULL ? rec->dtr_type : "",
				     &q->hint[1]);

		if (ac != 0 && tc != 0)
			return put_int(q, rec, ac, tc);
	}
	at = open_item(q, (char)('0' + rec->dtr_kind));
	data = put_action(q, rec->dtr_action);

	put_type(q, rec->dtr_type);
	switch (rec->dtr_kind) {
	case DTRACE_REC_INT:
		put_u8(q, (uint8_t)rec->dtr_width);
		put_u8(q, rec->dtr_signed != 0);
		put_u64(q, (uint64_t)rec->dtr_int);
		put_u64(q, rec->dtr_uint);
		break;
	case DTRACE_REC_FLOAT:
		put_u8(q, (uint8_t)rec->dtr_width);
		put(q, &rec->dtr_float, sizeof(rec->dtr_float));
		break;
	case DTRACE_REC_STRING:
		put_str(q, rec->dtr_str != NULL ? rec->dtr_str : "", rec->dtr_len);
		break;
	case DTRACE_REC_PRINTF:
		put_str(q, rec->dtr_str != NULL ? rec->dtr_str : "", rec->dtr_len);
		put_u32(q, rec->dtr_args != NULL ? rec->dtr_nargs : 0);
		for (unsigned i = 0; rec->dtr_args != NULL && i < rec->dtr_nargs; i++)
			put_value(q, &rec->dtr_args[i]);
		break;
	case DTRACE_REC_BYTES:
		put_u64(q, rec->dtr_uint);
		put_str(q, rec->dtr_bytes != NULL ? rec->dtr_bytes : "", rec->dtr_len);
		break;
	case DTRACE_REC_SYM:
		put_u32(q, (uint32_t)rec->dtr_pid);
		put_u64(q, rec->dtr_uint);
		put_cstr(q, rec->dtr_module);
		put_cstr(q, rec->dtr_symbol);
		put_u64(q, rec->dtr_symbol != NULL ? rec->dtr_offset : 0);
		put_cstr(q, rec->dtr_str != NULL ? rec->dtr_str : "");
		break;
	case DTRACE_REC_STACK:
		put_u32(q, (uint32_t)rec->dtr_pid);
		put_u32(q, rec->dtr_pcs != NULL ? rec->dtr_nframes : 0);
		for (unsigned i = 0; rec->dtr_pcs != NULL && i < rec->dtr_nframes; i++) {
			const char *sym = rec->dtr_fsymbols != NULL ? rec->dtr_fsymbols[i] : NULL;

			put_u64(q, rec->dtr_pcs[i]);
			put_cstr(q, rec->dtr_fmodules != NULL ? rec->dtr_fmodules[i] : NULL);
			put_cstr(q, sym);
			put_u64(q, sym != NULL && rec->dtr_foffsets != NULL ? rec->dtr_foffsets[i]
									    : 0);
			put_cstr(q, rec->dtr_frames != NULL && rec->dtr_frames[i] != NULL
					? rec->dtr_frames[i]
					: "");
		}
		break;
	case DTRACE_REC_PRINTA:
		put_cstr(q, rec->dtr_str);
		put_names(q, rec->dtr_aggnames, rec->dtr_naggs);
		break;
	case DTRACE_REC_EXIT: put_u64(q, (uint64_t)rec->dtr_int); break;
	default: /* OTHER, and kinds a newer library may add */
		put_cstr(q, rec->dtr_str);
		put_u64(q, (uint64_t)rec->dtr_int);
		put_names(q, rec->dtr_aggnames, rec->dtr_naggs);
		break;
	}
	close_item(q, at);
	return data;
}

static void put_desc(bc_queue_t *q, const dtrace_probedesc_t *pd)
{
	put_u32(q, pd != NULL ? pd->dtpd_id : 0);
	put_cstr(q, pd != NULL ? pd->dtpd_provider : "");
	put_cstr(q, pd != NULL ? pd->dtpd_mod : "");
	put_cstr(q, pd != NULL ? pd->dtpd_func : "");
	put_cstr(q, pd != NULL ? pd->dtpd_name : "");
}

typedef struct {
	bc_queue_t *q;
	bool printa;
} aggwalk_t;

/* An aggregation's entry: 'A' name, id, kind, printa, keys, value, buckets. */
static int on_agg(const dtrace_aggdata_t *a, void *arg)
{
	aggwalk_t *w = arg;
	bc_queue_t *q = w->q;
	size_t at = open_item(q, BC_AGG), nat;
	uint32_t n = 0;

	put_cstr(q, a->dtada_name != NULL ? a->dtada_name : "");
	put_u32(q, (uint32_t)a->dtada_id);
	put_u32(q, (uint32_t)a->dtada_kind);
	put_u8(q, w->printa);
	put_u32(q, a->dtada_nkeys);
	for (unsigned k = 0; k < a->dtada_nkeys; k++)
		put_value(q, &a->dtada_keys[k]);
	put_u64(q, (uint64_t)a->dtada_value);
	put(q, &a->dtada_fvalue, sizeof(a->dtada_fvalue));
	nat = q->len;
	put_u32(q, 0);
	for (unsigned i = 0; a->dtada_buckets != NULL && i < a->dtada_nbuckets; i++) {
		const dtrace_aggbucket_t *b = &a->dtada_buckets[i];

		if (b->dtab_count == 0)
			continue;
		put_u64(q, (uint64_t)b->dtab_lo);
		put_u64(q, (uint64_t)b->dtab_hi);
		put_u64(q, (uint64_t)b->dtab_count);
		n++;
	}
	patch_u32(q, nat, n);
	close_item(q, at);
	end_entry(q);
	return q->failed ? -1 : 0;
}

/* Where a fault, drop or printa() entry goes: after the firing being written, if one is. */
static bc_queue_t *out_queue(bc_sink_t *s)
{
	return s->in_probe ? &s->side : &s->q;
}

static void on_errdata(const dtrace_errdata_t *e, void *arg)
{
	bc_sink_t *s = arg;
	bc_queue_t *q = out_queue(s);
	size_t at = open_item(q, BC_ERROR);
	bool has_addr = e->dteda_fault != NULL && strcmp(e->dteda_fault, "invalid address") == 0;

	put_u32(q, e->dteda_epid);
	put_desc(q, e->dteda_pdesc);
	put_u32(q, (uint32_t)e->dteda_action);
	put_u32(q, (uint32_t)e->dteda_offset);
	put_cstr(q, e->dteda_fault);
	put_u8(q, has_addr);
	put_u64(q, e->dteda_addr);
	put_cstr(q, e->dteda_msg);
	close_item(q, at);
	end_entry(q);
}

static void on_dropdata(const dtrace_dropdata_t *d, void *arg)
{
	bc_sink_t *s = arg;
	bc_queue_t *q = out_queue(s);
	size_t at = open_item(q, BC_DROP);

	put_cstr(q, d->dtdda_kind);
	put_u32(q, (uint32_t)d->dtdda_cpu);
	put_u64(q, d->dtdda_drops);
	put_cstr(q, d->dtdda_msg);
	close_item(q, at);
	end_entry(q);
}

/* A firing: 'P' cpu, epid, the probe, nrecs, ndata, then its records. */
static int on_probe(const dtrace_probedata_t *data, void *arg)
{
	bc_sink_t *s = arg;
	bc_queue_t *q = &s->q;

	s->probe_at = open_item(q, BC_PROBE);
	put_u32(q, (uint32_t)data->dtpda_cpu);
	put_u32(q, data->dtpda_epid);
	put_desc(q, data->dtpda_pdesc);
	s->nrecs_at = q->len;
	put_u32(q, 0);
	put_u32(q, 0);
	s->nrecs = s->ndata = 0;
	s->in_probe = true;
	return q->failed ? DTRACE_CONSUME_ABORT : DTRACE_CONSUME_THIS;
}

static int on_rec(const dtrace_probedata_t *data, const dtrace_record_t *rec, void *arg)
{
	bc_sink_t *s = arg;
	bc_queue_t *q = &s->q;

	(void)data;
	if (rec == NULL) { /* the firing's end: then what came during it */
		patch_u32(q, s->nrecs_at, s->nrecs);
		patch_u32(q, s->nrecs_at + 4, s->ndata);
		close_item(q, s->probe_at);
		end_entry(q);
		s->in_probe = false;
		if (s->side.failed)
			q->failed = true;
		put(q, s->side.buf, s->side.len);
		end_entry(q);
		s->side.len = s->side.whole = 0;
		s->side.failed = false;
		return q->failed ? DTRACE_CONSUME_ABORT : DTRACE_CONSUME_THIS;
	}
	s->nrecs++;
	s->ndata += put_value(q, rec);
	if (rec->dtr_kind == DTRACE_REC_PRINTA && (s->flags & BC_SINK_PRINTA)) {
		aggwalk_t w = { &s->side, true };

		for (unsigned i = 0; rec->dtr_aggnames != NULL && i < rec->dtr_naggs; i++) {
			dtrace_aggwalk_opts_t o = { .sz = sizeof(o),
						    .name = rec->dtr_aggnames[i],
						    .flags = DTRACE_AGGWALK_MARK };

			if (dtrace_aggregate_walk(s->dtp, &o, on_agg, &w) != 0 && !s->side.failed &&
			    s->walkerr == 0)
				s->walkerr = dtrace_errno(s->dtp);
		}
	}
	return q->failed ? DTRACE_CONSUME_ABORT : DTRACE_CONSUME_THIS;
}

void bc_sink_init(bc_sink_t *s, dtrace_hdl_t *dtp, unsigned flags)
{
	*s = (bc_sink_t){ .dtp = dtp, .flags = flags };
}

int bc_sink_handlers(bc_sink_t *s)
{
	if (dtrace_handle_errdata(s->dtp, on_errdata, s) != 0 ||
	    dtrace_handle_dropdata(s->dtp, on_dropdata, s) != 0)
		return -1;
	return 0;
}

dtrace_workstatus_t bc_consume(bc_sink_t *s)
{
	dtrace_consume_opts_t o = { .sz = sizeof(o), .probe = on_probe, .rec = on_rec, .arg = s };
	dtrace_workstatus_t rc = dtrace_consume(s->dtp, &o);

	if (s->in_probe) { /* a firing cut short (an abort): not a whole entry */
		s->in_probe = false;
		s->q.len = s->q.whole;
		put(&s->q, s->side.buf, s->side.len);
		end_entry(&s->q);
		s->side.len = s->side.whole = 0;
	}
	return rc;
}

int bc_aggregate(bc_sink_t *s, const char *name)
{
	dtrace_aggwalk_opts_t o = { .sz = sizeof(o), .name = name };
	aggwalk_t w = { &s->q, false };

	return dtrace_aggregate_walk(s->dtp, name != NULL ? &o : NULL, on_agg, &w);
}

bool bc_sink_failed(const bc_sink_t *s)
{
	return s->q.failed || s->side.failed;
}

static void queue_reset(bc_queue_t *q)
{
	q->len = q->whole = 0;
	q->failed = false;
	if (q->cap > (1u << 20)) { /* a burst's room is given back */
		free(q->buf);
		q->buf = NULL;
		q->cap = 0;
	}
}

void bc_sink_reset(bc_sink_t *s)
{
	queue_reset(&s->q);
	queue_reset(&s->side);
	s->walkerr = 0;
}

void bc_sink_fini(bc_sink_t *s)
{
	free(s->q.buf);
	free(s->side.buf);
	s->q = s->side = (bc_queue_t){ 0 };
}

/* ---------------------------------------------------------------- reading */

bc_reader_t bc_sink_reader(const bc_sink_t *s)
{
	return (bc_reader_t){ s->q.buf, s->q.buf != NULL ? s->q.buf + s->q.whole : NULL, false };
}

void bc_sink_discard(bc_sink_t *s, const bc_reader_t *r)
{
	size_t n;

	if (s->q.buf == NULL || r->p == NULL || r->p < s->q.buf || r->p > s->q.buf + s->q.whole)
		return;
	n = (size_t)(r->p - s->q.buf);
	memmove(s->q.buf, s->q.buf + n, s->q.len - n);
	s->q.len -= n;
	s->q.whole -= n;
}

static inline bool take(bc_reader_t *r, void *out, size_t n)
{
	if (__builtin_expect(r->bad || r->p == NULL || (size_t)(r->end - r->p) < n, 0)) {
		r->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->p, n);
	r->p += n;
	return true;
}

static inline uint8_t get_u8(bc_reader_t *r)
{
	uint8_t v;

	take(r, &v, sizeof(v));
	return v;
}

static inline uint32_t get_u32(bc_reader_t *r)
{
	uint32_t v;

	take(r, &v, sizeof(v));
	return v;
}

static inline uint64_t get_u64(bc_reader_t *r)
{
	uint64_t v;

	take(r, &v, sizeof(v));
	return v;
}

static inline const char *get_str(bc_reader_t *r, size_t *lenp)
{
	uint32_t n = get_u32(r);
	const char *s;

	if (lenp != NULL)
		*lenp = 0;
	if (r->bad || n == NONE)
		return NULL;
	if ((size_t)(r->end - r->p) < (size_t)n + 1 || r->p[n] != '\0') {
		r->bad = true;
		return NULL;
	}
	s = r->p;
	r->p += (size_t)n + 1;
	if (lenp != NULL)
		*lenp = n;
	return s;
}

/* An item's tag and body: *body reads it, r moves past it.  0 at the end, -1 bad. */
static int item(bc_reader_t *r, char *tag, bc_reader_t *body)
{
	uint32_t n;

	if (r->bad)
		return -1;
	if (r->p == NULL || r->p >= r->end)
		return 0;
	*tag = (char)get_u8(r);
	n = get_u32(r);
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return -1;
	}
	*body = (bc_reader_t){ r->p, r->p + n, false };
	r->p += n;
	return 1;
}

/* The rest of body as a sub-reader of n items, checked to exist. */
static bc_reader_t rest(bc_reader_t *body)
{
	bc_reader_t sub = *body;

	body->p = body->end;
	return sub;
}

int bc_read_value(bc_reader_t *r, bc_value_t *v)
{
	bc_reader_t b;
	uint8_t code;
	char tag;
	int rc = item(r, &tag, &b);

	if (rc <= 0)
		return rc;
	if (tag == '0' + DTRACE_REC_INT && b.end - b.p == INT_BODY && (uint8_t)b.p[0] != 0 &&
	    (uint8_t)b.p[0] <= NACTIONS && (uint8_t)b.p[1] != 0 && (uint8_t)b.p[1] <= NTYPES) {
		/* put_int's layout: no field to look for */
		*v = (bc_value_t){ .kind = DTRACE_REC_INT,
				   .action = actions[(uint8_t)b.p[0] - 1],
				   .is_data = (uint8_t)b.p[0] <= NDATA,
				   .type = types[(uint8_t)b.p[1] - 1],
				   .width = (uint8_t)b.p[2],
				   .is_signed = b.p[3] != 0 };
		memcpy(&v->i, b.p + 4, 8);
		memcpy(&v->u, b.p + 12, 8);
		return 1;
	}
	*v = (bc_value_t){ .kind = (dtrace_reckind_t)(tag - '0') };
	code = get_u8(&b);
	if (code == 0) {
		v->action = get_str(&b, NULL);
		v->is_data = bc_is_data(v->action);
	} else if (code <= NACTIONS) {
		v->action = actions[code - 1];
		v->is_data = code <= NDATA;
	} else {
		b.bad = true;
	}
	code = get_u8(&b);
	if (code == 0)
		v->type = get_str(&b, NULL);
	else if (code <= NTYPES)
		v->type = types[code - 1];
	else
		b.bad = true;
	switch (v->kind) {
	case DTRACE_REC_INT:
		v->width = get_u8(&b);
		v->is_signed = get_u8(&b) != 0;
		v->i = (int64_t)get_u64(&b);
		v->u = get_u64(&b);
		break;
	case DTRACE_REC_FLOAT:
		v->width = get_u8(&b);
		take(&b, &v->f, sizeof(v->f));
		break;
	case DTRACE_REC_STRING: v->str = get_str(&b, &v->len); break;
	case DTRACE_REC_PRINTF:
		v->str = get_str(&b, &v->len);
		v->n = get_u32(&b);
		v->sub = rest(&b);
		break;
	case DTRACE_REC_BYTES:
		v->addr = get_u64(&b);
		v->str = get_str(&b, &v->len);
		break;
	case DTRACE_REC_SYM:
		v->pid = (int)get_u32(&b);
		v->addr = get_u64(&b);
		v->module = get_str(&b, NULL);
		v->symbol = get_str(&b, NULL);
		v->offset = get_u64(&b);
		v->str = get_str(&b, &v->len);
		break;
	case DTRACE_REC_STACK:
		v->pid = (int)get_u32(&b);
		v->n = get_u32(&b);
		v->sub = rest(&b);
		break;
	case DTRACE_REC_PRINTA:
		v->str = get_str(&b, &v->len);
		v->n = get_u32(&b);
		v->sub = rest(&b);
		break;
	case DTRACE_REC_EXIT: v->i = (int64_t)get_u64(&b); break;
	default:
		v->str = get_str(&b, &v->len);
		v->i = (int64_t)get_u64(&b);
		v->n = get_u32(&b);
		v->sub = rest(&b);
		break;
	}
	if (b.bad || v->action == NULL || v->type == NULL) {
		r->bad = true;
		return -1;
	}
	return 1;
}

int bc_read_frame(bc_reader_t *r, bc_frame_t *f)
{
	if (r->bad)
		return -1;
	if (r->p == NULL || r->p >= r->end)
		return 0;
	f->pc = get_u64(r);
	f->module = get_str(r, NULL);
	f->symbol = get_str(r, NULL);
	f->offset = get_u64(r);
	f->name = get_str(r, NULL);
	return r->bad || f->name == NULL ? -1 : 1;
}

int bc_read_bucket(bc_reader_t *r, dtrace_aggbucket_t *b)
{
	if (r->bad)
		return -1;
	if (r->p == NULL || r->p >= r->end)
		return 0;
	b->dtab_lo = (int64_t)get_u64(r);
	b->dtab_hi = (int64_t)get_u64(r);
	b->dtab_count = (int64_t)get_u64(r);
	return r->bad ? -1 : 1;
}

int bc_read_name(bc_reader_t *r, const char **name)
{
	if (r->bad)
		return -1;
	if (r->p == NULL || r->p >= r->end)
		return 0;
	*name = get_str(r, NULL);
	return r->bad || *name == NULL ? -1 : 1;
}

/* Skip n values of b (keys), leaving b after them; false if they are not there. */
static bool skip_values(bc_reader_t *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		bc_reader_t body;
		char tag;

		if (item(b, &tag, &body) != 1)
			return false;
	}
	return true;
}

int bc_read_entry(bc_reader_t *r, bc_entry_t *e)
{
	bc_reader_t b;
	char tag;
	int rc = item(r, &tag, &b);
	const char *keys;

	if (rc <= 0)
		return rc;
	if (tag == BC_PROBE) { /* the commonest: only its fields are set */
		e->kind = BC_PROBE;
		e->aggname = e->function_name = e->fault = e->dropkind = e->msg = NULL;
	} else {
		*e = (bc_entry_t){ .kind = (bc_entry_kind_t)tag, .cpu = -1 };
	}
	switch (tag) {
	case BC_PROBE:
		e->cpu = (int)get_u32(&b);
		e->epid = get_u32(&b);
		e->id = get_u32(&b);
		e->provider = get_str(&b, NULL);
		e->module = get_str(&b, NULL);
		e->function = get_str(&b, NULL);
		e->name = get_str(&b, NULL);
		e->nrecs = get_u32(&b);
		e->ndata = get_u32(&b);
		e->recs = rest(&b);
		if (e->name == NULL)
			b.bad = true;
		break;
	case BC_AGG:
		e->aggname = get_str(&b, NULL);
		e->aggid = (int)get_u32(&b);
		e->aggkind = (dtrace_aggkind_t)get_u32(&b);
		e->function_name = dtrace_aggkind_name(e->aggkind);
		if (e->function_name == NULL)
			e->function_name = "";
		e->printa = get_u8(&b) != 0;
		e->nkeys = get_u32(&b);
		keys = b.p;
		if (b.bad || e->aggname == NULL || !skip_values(&b, e->nkeys)) {
			b.bad = true;
			break;
		}
		e->keys = (bc_reader_t){ keys, b.p, false };
		e->value = (int64_t)get_u64(&b);
		take(&b, &e->fvalue, sizeof(e->fvalue));
		e->nbuckets = get_u32(&b);
		e->buckets = rest(&b);
		break;
	case BC_ERROR:
		e->epid = get_u32(&b);
		e->id = get_u32(&b);
		e->provider = get_str(&b, NULL);
		e->module = get_str(&b, NULL);
		e->function = get_str(&b, NULL);
		e->name = get_str(&b, NULL);
		e->action = (int)get_u32(&b);
		e->offset = (int)get_u32(&b);
		e->fault = get_str(&b, NULL);
		e->has_addr = get_u8(&b) != 0;
		e->addr = get_u64(&b);
		e->msg = get_str(&b, NULL);
		break;
	case BC_DROP:
		e->dropkind = get_str(&b, NULL);
		e->cpu = (int)get_u32(&b);
		e->count = get_u64(&b);
		e->msg = get_str(&b, NULL);
		break;
	default: b.bad = true; break;
	}
	if (b.bad) {
		r->bad = true;
		return -1;
	}
	return 1;
}

bool bc_is_data(const char *action)
{
	for (size_t i = 0; action != NULL && i < NDATA; i++)
		if (action[0] == actions[i][0] && strcmp(action, actions[i]) == 0)
			return true;
	return false;
}

bool bc_is_print(const bc_value_t *v)
{
	return v->kind == DTRACE_REC_BYTES && v->action != NULL && strcmp(v->action, "print") == 0;
}
