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
 *    "speculation_busy"|"speculation_unavailable","count":N[,"cpu":C]}
 *     (principal and aggregation drops are per CPU, the others not)
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

/* An integer record's value, by its D type's size and sign. */
static void json_int(FILE *fp, const dt_rec_t *rec, const uint8_t *data)
{
	uint64_t v;
	unsigned bits = rec->r_size >= 8 || rec->r_size == 0 ? 64 : rec->r_size * 8;

	memcpy(&v, data + rec->r_off, 8);
	if (bits < 64) {
		uint64_t mask = (1ULL << bits) - 1, sign = 1ULL << (bits - 1);

		v &= mask;
		if (rec->r_signed && (v & sign) != 0)
			v |= ~mask;
	}
	if (rec->r_signed)
		fprintf(fp, "%lld", (long long)v);
	else
		fprintf(fp, "%llu", (unsigned long long)v);
}

/*
 * uaddr(), ufunc(), usym(), umod(): an object of the address, the process,
 * and what is known of them (the module, the symbol and the offset in it;
 * ufunc and usym give the symbol's start as address, umod no symbol), and
 * "name", the text dtrace prints.
 */
static void json_usym(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data)
{
	uint64_t pid, pc;
	char name[PATH_MAX + 64];
	dt_usym_t u;
	bool known, umod = rec->r_sym == DT_B_UMOD || rec->r_sym == DT_B_MOD;
	bool kernel = rec->r_sym == DT_B_SYM || rec->r_sym == DT_B_FUNC || rec->r_sym == DT_B_MOD;

	memcpy(&pid, data + rec->r_off, 8);
	memcpy(&pc, data + rec->r_off + 8, 8);

	known = dt_sym_rec_lookup(dtp, rec->r_sym, pid, pc, &u) == 0;
	if (known && rec->r_sym != DT_B_UADDR && !umod && u.us_name != NULL)
		pc = u.us_symaddr;
	dt_usym_rec_str(dtp, rec, data, name, sizeof(name));
	fputc('{', fp);
	if (!kernel) /* sym(), func(), mod(): the kernel's */
		fprintf(fp, "\"pid\":%llu,", (unsigned long long)pid);
	fprintf(fp, "\"address\":%llu", (unsigned long long)pc);
	if (known && u.us_mod != NULL) {
		fputs(",\"module\":", fp);
		dt_json_str(fp, u.us_mod);
	}
	if (known && u.us_name != NULL && !umod) {
		fputs(",\"symbol\":", fp);
		dt_json_str(fp, u.us_name);
		fprintf(fp, ",\"offset\":%llu", (unsigned long long)(pc - u.us_symaddr));
	}
	fputs(",\"name\":", fp);
	dt_json_str(fp, name);
	fputc('}', fp);
}

/*
 * stack(), ustack(), jstack(): {"pid":P,"frames":[F,...]} (stack() has no
 * pid), innermost first, each frame {"address":A,"module":M,"symbol":S,
 * "offset":O,"name":T}, module, symbol and offset present when known, T
 * what text mode prints.
 */
static void json_stack(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data)
{
	const uint8_t *p = data + rec->r_off;
	uint64_t pid = 0, pc;
	char name[PATH_MAX + 64];

	fputc('{', fp);
	if (rec->r_sym != DT_B_STACK) {
		memcpy(&pid, p, 8);
		p += 8;
		fprintf(fp, "\"pid\":%llu,", (unsigned long long)pid);
	}
	fputs("\"frames\":[", fp);
	for (uint32_t i = 0; i < rec->r_nframes; i++) {
		dt_usym_t u;
		bool known;

		memcpy(&pc, p + 8 * i, 8);
		if (pc == 0)
			break;
		known = dt_frame_lookup(dtp, (pid_t)pid, pc, i > 0, &u) == 0;
		fprintf(fp, "%s{\"address\":%llu", i ? "," : "", (unsigned long long)pc);
		if (known && u.us_mod != NULL) {
			fputs(",\"module\":", fp);
			dt_json_str(fp, u.us_mod);
		}
		if (known && u.us_name != NULL) {
			fputs(",\"symbol\":", fp);
			dt_json_str(fp, u.us_name);
			fprintf(fp, ",\"offset\":%llu", (unsigned long long)(pc - u.us_symaddr));
		}
		dt_frame_str(dtp, (pid_t)pid, pc, i > 0, name, sizeof(name));
		fputs(",\"name\":", fp);
		dt_json_str(fp, name);
		fputc('}', fp);
	}
	fputs("]}", fp);
}

void dt_json_datum(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data)
{
	const char *c = (const char *)data + rec->r_off;

	if (rec->r_float) { /* a number; JSON has none for infinities and NaNs */
		double d;

		if (rec->r_size == 4) {
			float f;

			memcpy(&f, c, 4);
			d = f;
		} else if (rec->r_size == sizeof(long double)) {
			long double ld;

			memcpy(&ld, c, sizeof(ld));
			d = (double)ld;
		} else {
			memcpy(&d, c, 8);
		}
		if (isfinite(d))
			fprintf(fp, "%.17g", d);
		else
			fputs("null", fp);
		return;
	}
	switch (rec->r_kind) {
	case DT_RK_INT: json_int(fp, rec, data); break;
	case DT_RK_STR: dt_json_bytes(fp, c, strnlen(c, rec->r_size)); break;
	case DT_RK_MEM:
	case DT_RK_BYTES:
		fputc('[', fp);
		for (uint32_t i = 0; i < rec->r_size; i++)
			fprintf(fp, "%s%u", i ? "," : "", (unsigned char)c[i]);
		fputc(']', fp);
		break;
	case DT_RK_USYM: json_usym(dtp, fp, rec, data); break;
	case DT_RK_STACK: json_stack(dtp, fp, rec, data); break;
	}
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

/* The probe object of one record: its traced and printed data, in order. */
int dt_json_record(dtrace_hdl_t *dtp, FILE *fp, int cpu, const dtrace_probedesc_t *pd,
		   const dt_stmt_t *st, const uint8_t *d)
{
	bool first = true;

	fputs("{\"type\":\"probe\"", fp);
	json_probe(fp, cpu, pd);
	fputs(",\"data\":[", fp);
	for (int a = 0; a < st->st_nacts; a++) {
		const dt_act_t *act = &st->st_acts[a];
		char *text = NULL;
		size_t len = 0;
		FILE *mf;

		switch (act->a_kind) {
		case DT_A_TRACE:
		case DT_A_TRACEMEM: {
			/* tracemem's memory is its last record (after a dynamic size) */
			dt_rec_t rec = st->st_recs[act->a_rec + act->a_nrecs - 1];

			if (act->a_kind == DT_A_TRACEMEM && act->a_nrecs > 1) {
				int64_t dsize;

				memcpy(&dsize, d + st->st_recs[act->a_rec].r_off, 8);
				if (dsize != 0 && (uint64_t)dsize < rec.r_size)
					rec.r_size = (uint32_t)dsize;
			}
			fprintf(fp, "%s{\"action\":\"%s\",\"value\":", first ? "" : ",",
				act->a_kind == DT_A_TRACE ? "trace" : "tracemem");
			dt_json_datum(dtp, fp, &rec, d);
			fputc('}', fp);
			first = false;
			break;
		}
		case DT_A_PRINTF:
			if ((mf = open_memstream(&text, &len)) == NULL)
				return -1;
			dt_print_printf(dtp, mf, act->a_fmt,
					act->a_nrecs > 0 ? &st->st_recs[act->a_rec] : NULL,
					act->a_nrecs, d);
			if (fclose(mf) != 0) {
				free(text);
				return -1;
			}
			fprintf(fp, "%s{\"action\":\"printf\",\"value\":", first ? "" : ",");
			dt_json_bytes(fp, text, len);
			fputc('}', fp);
			free(text);
			first = false;
			break;
		case DT_A_PRINT: {
			const dt_rec_t *pr = &st->st_recs[act->a_rec],
				       *vr = &st->st_recs[act->a_rec + 1];
			char tn[512];
			uint64_t addr = 0;

			memcpy(&addr, d + pr->r_off, pr->r_size < 8 ? pr->r_size : 8);
			dt_type_name(act->a_type, tn, sizeof(tn));
			fprintf(fp, "%s{\"action\":\"print\",\"address\":%llu,\"type\":",
				first ? "" : ",", (unsigned long long)addr);
			dt_json_str(fp, tn);
			fputs(",\"value\":", fp);
			json_typed(fp, act->a_type, d + vr->r_off, 0);
			fputc('}', fp);
			first = false;
			break;
		}
		default: break;
		}
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
