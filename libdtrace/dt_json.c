/*
 * dt_json.c -- -x oformat=json: one JSON object per line on the output
 * (JSON Lines), for pipelines.  The objects (docs/json.md has examples):
 *
 *   {"type":"probe","cpu":C,"id":ID,"provider":P,"module":M,"function":F,
 *    "name":N,"data":[{"action":"trace","value":V},
 *                     {"action":"printf","value":"formatted text"}, ...]}
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

void dt_json_datum(FILE *fp, const dt_rec_t *rec, const uint8_t *data)
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

		if (k == DT_A_TRACE || k == DT_A_TRACEMEM || k == DT_A_PRINTF)
			return true;
	}
	return false;
}

/* The probe object of one record: its traced and printed data, in order. */
int dt_json_record(FILE *fp, int cpu, const dtrace_probedesc_t *pd, const dt_stmt_t *st,
		   const uint8_t *d)
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
			dt_json_datum(fp, &rec, d);
			fputc('}', fp);
			first = false;
			break;
		}
		case DT_A_PRINTF:
			if ((mf = open_memstream(&text, &len)) == NULL)
				return -1;
			dt_print_printf(mf, act->a_fmt,
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
