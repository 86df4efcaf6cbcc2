/*
 * dt_json.c -- -x oformat=json: one JSON object per line on the output
 * (JSON Lines), for pipelines.  The objects (docs/json.md has examples):
 *
 *   {"type":"probe","cpu":C,"id":ID,"provider":P,"module":M,"function":F,
 *    "name":N,"data":[{"action":"trace","value":V},
 *                     {"action":"printf","value":"formatted text"},
 *                     {"action":"print","address":A,"type":T,"value":{...}}, ...]}
 *   {"type":"aggregation","name":A,"function":"count","keys":[...],"value":V}
 *     (quantizations: "buckets":[{"min":LO,"max":HI,"count":N}, ...], the
 *     non-empty buckets, null for an open end)
 *   {"type":"drop","kind":"principal"|"aggregation"|"dynamic"|"speculative"|
 *    "speculation_busy"|"speculation_unavailable"|"tick","count":N[,"cpu":C]}
 *     (principal, aggregation and tick drops are per CPU, the others not)
 *   {"type":"error","epid":E,"id":ID,"provider":...,"fault":F,"address":A,
 *    "action":N,"offset":O}
 *
 * Integers are exact (64-bit, signed as their D type); strings are UTF-8,
 * with any byte that is not valid UTF-8 written as \u00XX.
 */
#include <stdlib.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "dt_run.h"
#include "dt_utf8.h"

static int put_file(void *fp, const char *p, size_t len)
{
	return fwrite(p, 1, len, fp) == len ? 0 : -1;
}

void dt_json_bytes(FILE *fp, const char *s, size_t n)
{
	fputc('"', fp);
	(void)dt_json_escape(s, n, put_file, fp);
	fputc('"', fp);
}

void dt_json_str(FILE *fp, const char *s)
{
	dt_json_bytes(fp, s, strlen(s));
}

/*
 * uaddr(), ufunc(), usym(), umod() (sym(), func(), mod(): the kernel's,
 * without "pid"): an object of the address, the process, and what is
 * known of them (the module, the symbol and the offset in it; ufunc and
 * usym give the symbol's start as address, umod no symbol), and "name",
 * the text dtrace prints.
 */
static void json_sym(FILE *fp, const dtrace_record_t *r)
{
	uint64_t pid = 0;

	fputc('{', fp);
	if (!(r->dtr_flags & DTRACE_RECF_KERNEL)) {
		if (r->dtr_data != NULL)
			memcpy(&pid, r->dtr_data, 8);
		fprintf(fp, "\"pid\":%llu,", (unsigned long long)pid);
	}
	fprintf(fp, "\"address\":%llu", (unsigned long long)r->dtr_uint);
	if (r->dtr_module != NULL) {
		fputs(",\"module\":", fp);
		dt_json_str(fp, r->dtr_module);
	}
	if (r->dtr_symbol != NULL) {
		fputs(",\"symbol\":", fp);
		dt_json_str(fp, r->dtr_symbol);
		fprintf(fp, ",\"offset\":%llu", (unsigned long long)r->dtr_offset);
	}
	fputs(",\"name\":", fp);
	dt_json_str(fp, r->dtr_str);
	fputc('}', fp);
}

/*
 * stack(), ustack(), jstack(): {"pid":P,"frames":[F,...]} (stack() has no
 * pid), innermost first, each frame {"address":A,"module":M,"symbol":S,
 * "offset":O,"name":T}, module, symbol and offset present when known, T
 * what text mode prints.
 */
static void json_stack(FILE *fp, const dtrace_record_t *r)
{
	fputc('{', fp);
	if (!(r->dtr_flags & DTRACE_RECF_KERNEL)) {
		uint64_t pid = 0;

		if (r->dtr_data != NULL)
			memcpy(&pid, r->dtr_data, 8);
		fprintf(fp, "\"pid\":%llu,", (unsigned long long)pid);
	}
	fputs("\"frames\":[", fp);
	for (unsigned i = 0; i < r->dtr_nframes; i++) {
		fprintf(fp, "%s{\"address\":%llu", i ? "," : "", (unsigned long long)r->dtr_pcs[i]);
		if (r->dtr_fmodules != NULL && r->dtr_fmodules[i] != NULL) {
			fputs(",\"module\":", fp);
			dt_json_str(fp, r->dtr_fmodules[i]);
		}
		if (r->dtr_fsymbols != NULL && r->dtr_fsymbols[i] != NULL) {
			fputs(",\"symbol\":", fp);
			dt_json_str(fp, r->dtr_fsymbols[i]);
			fprintf(fp, ",\"offset\":%llu", (unsigned long long)r->dtr_foffsets[i]);
		}
		fputs(",\"name\":", fp);
		dt_json_str(fp, r->dtr_frames[i]);
		fputc('}', fp);
	}
	fputs("]}", fp);
}

/*
 * A decoded value: a number for an integer (by its type's size and sign)
 * or a float (null when not finite: JSON has no infinities, no NaNs), a
 * string, an array of bytes, a symbol's or a stack's object.
 */
void dt_json_value(FILE *fp, const dtrace_record_t *r)
{
	switch (r->dtr_kind) {
	case DTRACE_REC_FLOAT:
		if (isfinite(r->dtr_float))
			fprintf(fp, "%.17g", r->dtr_float);
		else
			fputs("null", fp);
		break;
	case DTRACE_REC_INT:
		if (r->dtr_signed)
			fprintf(fp, "%lld", (long long)r->dtr_int);
		else
			fprintf(fp, "%llu", (unsigned long long)r->dtr_uint);
		break;
	case DTRACE_REC_STRING: dt_json_bytes(fp, r->dtr_str, r->dtr_len); break;
	case DTRACE_REC_BYTES:
		fputc('[', fp);
		for (size_t i = 0; i < r->dtr_len; i++)
			fprintf(fp, "%s%u", i ? "," : "", ((const unsigned char *)r->dtr_bytes)[i]);
		fputc(']', fp);
		break;
	case DTRACE_REC_SYM: json_sym(fp, r); break;
	case DTRACE_REC_STACK: json_stack(fp, r); break;
	default: fputs("null", fp); break;
	}
}

void dt_json_datum(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data)
{
	dt_recmem_t mem = { 0 };
	dtrace_record_t r;

	dt_rec_decode(dtp, rec, data, "key", &r, &mem);
	dt_json_value(fp, &r);
	dt_recmem_fini(&mem);
}

/* A bit-field's value: width bits from bit off of the bytes at p, sign-extended if signed. */
static uint64_t json_bits(const uint8_t *p, int off, int width, bool sign)
{
	uint64_t v = 0;
	size_t n = ((size_t)off + (size_t)width + 7) / 8;

	memcpy(&v, p, n < 8 ? n : 8); /* x86-64: bits from the least significant */
	v >>= off;
	if (width < 64) {
		v &= (1ULL << width) - 1;
		if (sign && (v >> (width - 1)) != 0)
			v |= ~((1ULL << width) - 1);
	}
	return v;
}

static void json_typed(FILE *fp, const dt_type_t *t, const uint8_t *p, int depth);

/* The members of a struct or union at p, those of anonymous members among them. */
static bool json_members(FILE *fp, const dt_type_t *r, const uint8_t *p, bool first, int depth)
{
	for (const dt_member_t *m = r->dtt_tag != NULL ? r->dtt_tag->td_members : NULL; m != NULL;
	     m = m->dm_next) {
		const dt_type_t *mr = dt_type_resolve(m->dm_type);

		if (m->dm_name == NULL || m->dm_name[0] == '\0') {
			if (mr != NULL &&
			    (mr->dtt_kind == DT_TK_STRUCT || mr->dtt_kind == DT_TK_UNION))
				first = json_members(fp, mr, p + m->dm_off, first, depth);
			continue;
		}
		fputs(first ? "" : ",", fp);
		dt_json_str(fp, m->dm_name);
		fputc(':', fp);
		first = false;
		if (m->dm_bits != 0) {
			uint64_t v = json_bits(p + m->dm_off, m->dm_bitoff, m->dm_bits,
					       mr != NULL && (mr->dtt_flags & DT_TF_SIGNED));

			fprintf(fp, mr != NULL && (mr->dtt_flags & DT_TF_SIGNED) ? "%lld" : "%llu",
				(long long)v);
		} else {
			json_typed(fp, m->dm_type, p + m->dm_off, depth + 1);
		}
	}
	return first;
}

/*
 * A typed value, for print(): a struct or union an object of all its named
 * members (bit-fields too), a char array a string to its first NUL, another
 * array an array, an enum its enumerator's name (or its number), a pointer
 * its address, floats numbers (null when not finite), integers by sign.
 */
static void json_typed(FILE *fp, const dt_type_t *t, const uint8_t *p, int depth)
{
	const dt_type_t *r = dt_type_resolve(t);
	size_t sz = r != NULL ? dt_type_size(r) : 0;
	uint64_t u = 0;

	if (r == NULL || depth > 64) {
		fputs("null", fp);
		return;
	}
	switch (r->dtt_kind) {
	case DT_TK_STRUCT:
	case DT_TK_UNION:
		fputc('{', fp);
		(void)json_members(fp, r, p, true, depth);
		fputc('}', fp);
		return;
	case DT_TK_ARRAY: {
		const dt_type_t *e = dt_type_resolve(r->dtt_ref);
		size_t esz = e != NULL ? dt_type_size(e) : 0;

		if (e != NULL && e->dtt_kind == DT_TK_INT && esz == 1 && e->dtt_name != NULL &&
		    strcmp(e->dtt_name, "char") == 0) {
			dt_json_bytes(fp, (const char *)p, strnlen((const char *)p, r->dtt_nelems));
			return;
		}
		fputc('[', fp);
		for (size_t i = 0; esz > 0 && i < r->dtt_nelems; i++) {
			fputs(i ? "," : "", fp);
			json_typed(fp, r->dtt_ref, p + i * esz, depth + 1);
		}
		fputc(']', fp);
		return;
	}
	case DT_TK_FLOAT: {
		double d = 0;

		if (sz == 4) {
			float f;

			memcpy(&f, p, 4);
			d = f;
		} else if (sz == 8) {
			memcpy(&d, p, 8);
		}
		if ((sz == 4 || sz == 8) && isfinite(d))
			fprintf(fp, "%.17g", d);
		else
			fputs("null", fp);
		return;
	}
	default: break;
	}
	memcpy(&u, p, sz < 8 ? sz : 8);
	if (r->dtt_kind == DT_TK_ENUM) {
		int64_t v = (int32_t)u;

		for (const dt_member_t *e = r->dtt_tag != NULL ? r->dtt_tag->td_enums : NULL;
		     e != NULL; e = e->dm_next)
			if ((int64_t)e->dm_off == v) {
				dt_json_str(fp, e->dm_name);
				return;
			}
		fprintf(fp, "%lld", (long long)v);
	} else if (r->dtt_kind == DT_TK_INT && (r->dtt_flags & DT_TF_SIGNED) && sz > 0 && sz < 8) {
		fprintf(fp, "%lld", (long long)((int64_t)(u << (64 - 8 * sz)) >> (64 - 8 * sz)));
	} else if (r->dtt_kind == DT_TK_INT && (r->dtt_flags & DT_TF_SIGNED)) {
		fprintf(fp, "%lld", (long long)u);
	} else {
		fprintf(fp, "%llu", (unsigned long long)u);
	}
}

/* "cpu", "id" and the four parts of a probe's name, after the "type". */
static void json_probe(FILE *fp, int cpu, const dtrace_probedesc_t *pd)
{
	if (cpu >= 0)
		fprintf(fp, ",\"cpu\":%d", cpu);
	fprintf(fp, ",\"id\":%u,\"provider\":", pd->dtpd_id);
	dt_json_str(fp, pd->dtpd_provider);
	fputs(",\"module\":", fp);
	dt_json_str(fp, pd->dtpd_mod);
	fputs(",\"function\":", fp);
	dt_json_str(fp, pd->dtpd_func);
	fputs(",\"name\":", fp);
	dt_json_str(fp, pd->dtpd_name);
}

bool dt_json_has_data(const dt_stmt_t *st)
{
	for (int a = 0; a < st->st_nacts; a++) {
		dt_akind_t k = st->st_acts[a].a_kind;

		if (k == DT_A_TRACE || k == DT_A_TRACEMEM || k == DT_A_PRINTF || k == DT_A_PRINT)
			return true;
	}
	return false;
}

/* The probe object of one firing: its probe, then its traced and printed data, in order. */
void dt_json_probe_begin(FILE *fp, const dtrace_probedata_t *pd)
{
	fputs("{\"type\":\"probe\"", fp);
	json_probe(fp, pd->dtpda_cpu, pd->dtpda_pdesc);
	fputs(",\"data\":[", fp);
}

/*
 * One record of trace() (stack(), ustack() and jstack() too), tracemem(),
 * printf() (its text) or print() (type: the type it prints by).
 */
void dt_json_data(FILE *fp, const dtrace_record_t *r, const dt_type_t *type, bool first)
{
	fputs(first ? "{\"action\":" : ",{\"action\":", fp);
	if (r->dtr_kind == DTRACE_REC_PRINTF) {
		fputs("\"printf\",\"value\":", fp);
		dt_json_bytes(fp, r->dtr_str, r->dtr_len);
	} else if (type != NULL) {
		fprintf(fp,
			"\"print\",\"address\":%llu,\"type\":", (unsigned long long)r->dtr_uint);
		dt_json_str(fp, r->dtr_type);
		fputs(",\"value\":", fp);
		json_typed(fp, type, r->dtr_data, 0);
	} else {
		/* stack(), ustack(), jstack() are trace()'s records here */
		fputs(strcmp(r->dtr_action, "tracemem") == 0 ? "\"tracemem\",\"value\":"
							     : "\"trace\",\"value\":",
		      fp);
		dt_json_value(fp, r);
	}
	fputc('}', fp);
}

void dt_json_probe_end(FILE *fp)
{
	fputs("]}\n", fp);
}

/*
 * One aggregation entry of dtrace_aggregate_walk(), on a line:
 * {"type":"aggregation","name":A,"function":F,"keys":[...],"value":V}, a
 * quantization's "buckets" those holding values (their count before
 * normalize() not 0), null for lquantize's and llquantize's open ends.
 */
int dt_json_aggdata(const dtrace_aggdata_t *a, void *arg)
{
	FILE *fp = arg;
	bool q = a->dtada_kind == DTRACE_AGG_QUANTIZE; /* its ends are numbers */
	unsigned n = 0;

	fputs("{\"type\":\"aggregation\",\"name\":", fp);
	dt_json_str(fp, a->dtada_name);
	fprintf(fp, ",\"function\":\"%s\",\"keys\":[", dtrace_aggkind_name(a->dtada_kind));
	for (unsigned k = 0; k < a->dtada_nkeys; k++) {
		if (k > 0)
			fputc(',', fp);
		dt_json_value(fp, &a->dtada_keys[k]);
	}
	fputc(']', fp);
	if (a->dtada_kind == DTRACE_AGG_STDDEV) {
		fprintf(fp, ",\"value\":%llu}\n", (unsigned long long)a->dtada_value);
		return 0;
	}
	if (a->dtada_kind < DTRACE_AGG_QUANTIZE) {
		fprintf(fp, ",\"value\":%lld}\n", (long long)a->dtada_value);
		return 0;
	}
	fputs(",\"buckets\":[", fp);
	for (unsigned i = 0; i < a->dtada_nbuckets; i++) {
		const dtrace_aggbucket_t *b = &a->dtada_buckets[i];

		if (a->dtada_counts[i] == 0)
			continue;
		fputs(n++ ? ",{\"min\":" : "{\"min\":", fp);
		if (q || b->dtab_lo != INT64_MIN)
			fprintf(fp, "%lld", (long long)b->dtab_lo);
		else
			fputs("null", fp);
		fputs(",\"max\":", fp);
		if (q || b->dtab_hi != INT64_MAX)
			fprintf(fp, "%lld", (long long)b->dtab_hi);
		else
			fputs("null", fp);
		fprintf(fp, ",\"count\":%lld}", (long long)b->dtab_count);
	}
	fputs("]}\n", fp);
	return 0;
}

void dt_json_drop(FILE *fp, const char *kind, int cpu, uint64_t n)
{
	fprintf(fp, "{\"type\":\"drop\",\"kind\":\"%s\",\"count\":%llu", kind,
		(unsigned long long)n);
	if (cpu >= 0)
		fprintf(fp, ",\"cpu\":%d", cpu);
	fputs("}\n", fp);
}

void dt_json_error(FILE *fp, const dt_errrec_t *er, const dtrace_probedesc_t *pd, const char *fault)
{
	fprintf(fp, "{\"type\":\"error\",\"epid\":%u", er->er_epid);
	json_probe(fp, -1, pd);
	fputs(",\"fault\":", fp);
	dt_json_str(fp, fault);
	if (er->er_fault == DT_FLT_BADADDR)
		fprintf(fp, ",\"address\":%llu", (unsigned long long)er->er_addr);
	/* a fault at no instruction (an illegal speculation id) has offset -1, as dtrace(1)'s */
	fprintf(fp, ",\"action\":%u,\"offset\":%lld}\n", er->er_action,
		er->er_pc == DT_ERR_NOPC ? -1LL : (long long)er->er_pc);
}
