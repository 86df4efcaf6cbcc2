/*
 * dt_consume.c -- the consumer: drain the per-CPU buffers, decode records
 * by EPID and print them as dtrace(1) prints them (dt_consume.c and
 * dt_printf.c of illumos are the reference for every format here).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dt_run.h"

static void message(dtrace_msg_f *f, void *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void message(dtrace_msg_f *f, void *arg, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (f != NULL)
		f(buf, arg);
	else
		fprintf(stderr, "dtrace: %s\n", buf);
}

int dtrace_handle_err(dtrace_hdl_t *dtp, dtrace_msg_f *func, void *arg)
{
	if (dtp == NULL)
		return -1;
	dtp->dt_errh = func;
	dtp->dt_errharg = arg;
	return 0;
}

int dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_msg_f *func, void *arg)
{
	if (dtp == NULL)
		return -1;
	dtp->dt_droph = func;
	dtp->dt_dropharg = arg;
	return 0;
}

/* ---------------------------------------------------------------- printing data */

static bool printable_string(const char *c, size_t n)
{
	size_t i;

	if (n == 0 || c[0] == '\0')
		return false;
	for (i = 0; i < n && c[i] != '\0'; i++)
		if (!isprint((unsigned char)c[i]) && !isspace((unsigned char)c[i]) &&
		    c[i] != '\b' && c[i] != '\a')
			return false;
	return true;
}

/* dt_print_bytes: a string if it looks like one, else a hex dump. */
static void print_bytes(FILE *fp, const char *c, size_t n, bool quiet, bool raw, int width)
{
	if (!raw && printable_string(c, n)) {
		size_t len = strnlen(c, n);

		if (quiet)
			fprintf(fp, "%.*s", (int)len, c);
		else
			fprintf(fp, "  %-*.*s", width < 0 ? -width : width, (int)len, c);
		return;
	}
	fprintf(fp, "\n%*s      ", 5, "");
	for (int i = 0; i < 16; i++)
		fprintf(fp, "  %c", "0123456789abcdef"[i]);
	fprintf(fp, "  0123456789abcdef\n");
	for (size_t i = 0; i < n; i += 16) {
		size_t j;

		fprintf(fp, "%*s%5zx:", 5, "", i);
		for (j = i; j < i + 16 && j < n; j++)
			fprintf(fp, " %02x", (unsigned char)c[j]);
		for (; j < i + 16; j++)
			fprintf(fp, "   ");
		fprintf(fp, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			fputc(c[j] < ' ' || c[j] > '~' ? '.' : c[j], fp);
		fputc('\n', fp);
	}
}

static int64_t rec_int(const dt_rec_t *rec, const uint8_t *data)
{
	int64_t v;

	memcpy(&v, data + rec->r_off, 8);
	return v;
}

/*
 * A traced value or an aggregation key, as illumos's dt_print_datum: an
 * integer by its size, bytes as a string (strwidth columns) or a dump.
 */
void dt_print_datum(FILE *fp, const dt_rec_t *rec, const uint8_t *data, bool quiet, int strwidth)
{
	int64_t v;

	if (rec->r_kind != DT_RK_INT) {
		print_bytes(fp, (const char *)data + rec->r_off, rec->r_size, quiet,
			    rec->r_kind == DT_RK_MEM, strwidth);
		return;
	}
	v = rec_int(rec, data);
	switch (rec->r_size) {
	case 8: fprintf(fp, quiet ? "%lld" : " %16lld", (long long)v); break;
	case 4: fprintf(fp, quiet ? "%d" : " %8d", (int)(uint32_t)v); break;
	case 2: fprintf(fp, quiet ? "%d" : " %5d", (int)(uint16_t)v); break;
	default: fprintf(fp, quiet ? "%d" : " %3d", (int)(uint8_t)v); break;
	}
}

/*
 * One printf( ): the format's conversions take the records in order.  Each
 * conversion is rebuilt from its checked parts (flags, width, precision and
 * a conversion chosen here) before it reaches fprintf.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void dt_print_printf(FILE *fp, const char *fmt, const dt_rec_t *recs, int nrecs,
		     const uint8_t *data)
{
	int ri = 0;

	for (const char *p = fmt; *p != '\0';) {
		char spec[64], conv;
		size_t sl = 0;
		int width = 0, prec = -1;
		bool have_w = false, have_p = false;
		const dt_rec_t *rec;

		if (*p != '%') {
			const char *q = strchr(p, '%');
			size_t n = q != NULL ? (size_t)(q - p) : strlen(p);

			fwrite(p, 1, n, fp);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			fputc('%', fp);
			p += 2;
			continue;
		}
		/*
		 * The conversion as illumos dt_printf_create reads it: flags,
		 * digits, '*', '.' and length letters in any order (the last
		 * '0' or '-' wins between the two), the digits after a '.'
		 * the precision; dt_printf_format then writes the flags in a
		 * fixed order, and a width or precision only when it is not 0.
		 * A '*' precision below 0 is none, as C's printf takes it.
		 */
		{
			bool alt = false, zpad = false, left = false, spos = false, group = false,
			     space = false;
			int dot = 0, digits = 0;

			for (p++;; p++) {
				if (isdigit((unsigned char)*p)) {
					long long n = 0;

					if (!dot && !digits && *p == '0') {
						zpad = true;
						left = false;
						continue;
					}
					for (; isdigit((unsigned char)*p); p++)
						if ((n = n * 10 + (*p - '0')) > INT_MAX)
							n = INT_MAX; /* the compiler refuses more */
					p--;
					digits++;
					if (dot)
						prec = (int)n, have_p = true;
					else
						width = (int)n, have_w = true;
					continue;
				}
				if (*p == '#')
					alt = true;
				else if (*p == '+')
					spos = true;
				else if (*p == '\'')
					group = true;
				else if (*p == ' ')
					space = true;
				else if (*p == '-')
					left = true, zpad = false;
				else if (*p == '?')
					width = 16, have_w = true;
				else if (*p == '.')
					dot++, digits = 0, have_p = true,
					       prec = prec < 0 ? 0 : prec;
				else if (*p == '*' && dot) {
					prec = ri < nrecs ? (int)rec_int(&recs[ri++], data) : 0;
					if (prec < 0)
						prec = 0, have_p = false;
				} else if (*p == '*') {
					width = ri < nrecs ? (int)rec_int(&recs[ri++], data) : 0;
					have_w = true;
					if (width < 0 && width != INT_MIN) /* C: a '-' flag */
						left = true, zpad = false, width = -width;
				} else if (*p != '\0' && strchr("hlLwjzt", *p) != NULL)
					continue;
				else
					break;
			}
			spec[sl++] = '%';
			if (alt)
				spec[sl++] = '#';
			if (zpad)
				spec[sl++] = '0';
			if (left)
				spec[sl++] = '-';
			if (spos)
				spec[sl++] = '+';
			if (group)
				spec[sl++] = '\'';
			if (space)
				spec[sl++] = ' ';
		}
		conv = *p != '\0' ? *p++ : 's';
		spec[sl] = '\0';
		if (have_w && width != 0)
			sl += (size_t)snprintf(spec + sl, sizeof(spec) - sl, "%d", width);
		if (have_p && prec > 0)
			sl += (size_t)snprintf(spec + sl, sizeof(spec) - sl, ".%d", prec);
		if (ri >= nrecs)
			break;
		rec = &recs[ri++];
		switch (conv) {
		case 'd':
		case 'i':
		case 'u':
		case 'o':
		case 'x':
		case 'X':
		case 'c':
		case 'p': {
			int64_t v = rec_int(rec, data);
			char c = conv == 'p' ? 'x' : conv;

			if ((c == 'd' || c == 'i') && !rec->r_signed)
				c = 'u';
			if (c == 'c') {
				snprintf(spec + sl, sizeof(spec) - sl, "c");
				fprintf(fp, spec, (int)(char)v);
			} else if (rec->r_size == 8 || conv == 'p') {
				snprintf(spec + sl, sizeof(spec) - sl, "ll%c", c);
				fprintf(fp, spec, (long long)v);
			} else {
				uint64_t mask = rec->r_size >= 4 ? 0xffffffffULL
								 : (1ULL << (8 * rec->r_size)) - 1;

				snprintf(spec + sl, sizeof(spec) - sl, "%c", c);
				if (c == 'd' || c == 'i')
					fprintf(fp, spec, (int)v);
				else
					fprintf(fp, spec, (unsigned)((uint64_t)v & mask));
			}
			break;
		}
		case 'e':
		case 'E':
		case 'f':
		case 'g':
		case 'G':
			snprintf(spec + sl, sizeof(spec) - sl, "%c", conv);
			fprintf(fp, spec,
				rec->r_signed ? (double)rec_int(rec, data)
					      : (double)(uint64_t)rec_int(rec, data));
			break;
		case 'Y': {
			time_t t = (time_t)(rec_int(rec, data) / 1000000000LL);
			struct tm tm;
			char buf[64];

			localtime_r(&t, &tm);
			strftime(buf, sizeof(buf), "%Y %b %e %T", &tm);
			snprintf(spec + sl, sizeof(spec) - sl, "s");
			fprintf(fp, spec, buf);
			break;
		}
		case 'a':
		case 'A': {
			char buf[32];

			snprintf(buf, sizeof(buf), "0x%llx",
				 (unsigned long long)rec_int(rec, data));
			snprintf(spec + sl, sizeof(spec) - sl, "s");
			fprintf(fp, spec, buf);
			break;
		}
		default: /* s, S */
			snprintf(spec + sl, sizeof(spec) - sl, "s");
			if (rec->r_kind == DT_RK_INT) {
				char buf[32];

				snprintf(buf, sizeof(buf), "%lld", (long long)rec_int(rec, data));
				fprintf(fp, spec, buf);
			} else {
				char *s = strndup((const char *)data + rec->r_off, rec->r_size);

				fprintf(fp, spec, s != NULL ? s : "");
				free(s);
			}
			break;
		}
	}
}

#pragma GCC diagnostic pop

/* ---------------------------------------------------------------- records */

static const char *fault_name(uint64_t f)
{
	switch (f) {
	case DT_FLT_BADADDR: return "invalid address";
	case DT_FLT_DIVZERO: return "divide-by-zero";
	default: return "unknown fault";
	}
}

static void error_record(dtrace_hdl_t *dtp, const dt_errrec_t *er)
{
	dt_run_t *r = dtp->dt_run;
	const dtrace_probedesc_t *pd;
	char details[40] = "", where[32];

	if (er->er_epid == 0 || er->er_epid > r->r_en.en_necbs)
		return;
	pd = &dtp->dt_probes[r->r_en.en_ecbs[er->er_epid - 1].e_probe];
	if (er->er_fault == DT_FLT_BADADDR)
		snprintf(details, sizeof(details), " (0x%llx)", (unsigned long long)er->er_addr);
	if (er->er_action == 0)
		snprintf(where, sizeof(where), "predicate");
	else
		snprintf(where, sizeof(where), "action #%u", er->er_action);
	if (r->r_dr.dr_json)
		dt_json_error(r->r_dr.dr_out != NULL ? r->r_dr.dr_out : stdout, er, pd,
			      fault_name(er->er_fault));
	message(dtp->dt_errh, dtp->dt_errharg,
		"error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s at DIF offset %u",
		er->er_epid, pd->dtpd_id, pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func,
		pd->dtpd_name, fault_name(er->er_fault), details, where, er->er_pc);
}

static void on_sample(void *ctx, int cpu, void *data, uint32_t size)
{
	dtrace_hdl_t *dtp = ctx;
	dt_run_t *r = dtp->dt_run;
	FILE *fp = r->r_dr.dr_out != NULL ? r->r_dr.dr_out : stdout;
	const uint8_t *d = data;
	const dt_stmt_t *st;
	const dtrace_probedesc_t *pd;
	uint32_t epid;

	if (size < 8)
		return;
	memcpy(&epid, d, 4);
	if (epid == 0) {
		dt_errrec_t er;

		if (size >= sizeof(er)) {
			memcpy(&er, d, sizeof(er));
			error_record(dtp, &er);
		}
		return;
	}
	if (epid > r->r_en.en_necbs)
		return;
	st = r->r_en.en_ecbs[epid - 1].e_stmt;
	if (size < st->st_size)
		return;
	pd = &dtp->dt_probes[r->r_en.en_ecbs[epid - 1].e_probe];
	if (r->r_dr.dr_json) {
		if ((!r->r_dr.dr_quiet || dt_json_has_data(st)) &&
		    dt_json_record(fp, cpu, pd, st, d) != 0)
			r->r_dr.dr_error = errno;
	} else if (!r->r_dr.dr_quiet) {
		char name[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 2];

		if (!r->r_dr.dr_header_done)
			fprintf(fp, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		r->r_dr.dr_header_done = true;
		snprintf(name, sizeof(name), "%s:%s", pd->dtpd_func, pd->dtpd_name);
		fprintf(fp, "%3d %6u %32s ", cpu, pd->dtpd_id, name);
	}
	for (int a = 0; a < st->st_nacts; a++) {
		const dt_act_t *act = &st->st_acts[a];

		switch (act->a_kind) {
		case DT_A_TRACE:
		case DT_A_TRACEMEM:
			if (r->r_dr.dr_json)
				break;
			dt_print_datum(fp, &st->st_recs[act->a_rec], d, r->r_dr.dr_quiet, -33);
			break;
		case DT_A_PRINTF:
			if (r->r_dr.dr_json)
				break;
			dt_print_printf(fp, act->a_fmt,
					act->a_nrecs > 0 ? &st->st_recs[act->a_rec] : NULL,
					act->a_nrecs, d);
			break;
		case DT_A_PRINTA:
			if (dt_agg_printa(dtp, fp, act, st->st_recs, d) != 0)
				r->r_dr.dr_error = dtrace_errno(dtp);
			break;
		case DT_A_CLEAR:
		case DT_A_TRUNC:
		case DT_A_NORMALIZE:
		case DT_A_DENORMALIZE:
			if (dt_agg_libact(dtp, act, st->st_recs, d) != 0)
				r->r_dr.dr_error = dtrace_errno(dtp);
			break;
		case DT_A_EXIT:
			/*
			 * The last exit() record read gives the status, as dtrace(1)'s
			 * chewrec sets g_status at each: END's exit(5) after exit(3)
			 * is 5 (the kernel records an exit() in END, in COOLDOWN).
			 */
			r->r_dr.dr_exited = true;
			r->r_dr.dr_exitval = (int)(int32_t)rec_int(&st->st_recs[act->a_rec], d);
			r->r_dr.dr_status = DTRACE_STATUS_EXITED;
			break;
		}
	}
	if (!r->r_dr.dr_quiet && !r->r_dr.dr_json)
		fputc('\n', fp);
}

/*
 * Report what was lost since the last report, as dtrace(1) words it.  The
 * programs count drops per CPU and kind in dt_drops: records the principal
 * buffer had no room for (a perf LOST record is written only when a later
 * record fits, so the last drops of a run would go unreported), entries a
 * full aggregation refused, and dynamic variables that found no space
 * (reported for all CPUs together, as dtrace(1) does).
 */
static void report_drops(dtrace_hdl_t *dtp, dt_run_t *r)
{
	static const struct {
		const char *what, *json;
		bool per_cpu;
	} kinds[DT_DROP_NKINDS] = {
		[DT_DROP_PRINCIPAL] = { "", "principal", true },
		[DT_DROP_AGG] = { "aggregation ", "aggregation", true },
		[DT_DROP_DYN] = { "dynamic variable ", "dynamic", false },
	};
	FILE *fp = r->r_dr.dr_out != NULL ? r->r_dr.dr_out : stdout;
	size_t nv = (size_t)r->r_ld.ld_ncpus * DT_DROP_NKINDS;
	uint64_t *seen, *now;
	uint32_t key = 0;

	/* the counts as last reported, then room for the counts now */
	if (r->r_dr.dr_drops_seen == NULL &&
	    (r->r_dr.dr_drops_seen = calloc(2 * nv, sizeof(uint64_t))) == NULL)
		return;
	seen = r->r_dr.dr_drops_seen;
	now = seen + nv;
	if (ks_map_lookup(r->r_ld.ld_fd[DT_MAP_DROPS], &key, now) != 0)
		return;
	for (int k = 0; k < DT_DROP_NKINDS; k++) {
		unsigned long long total = 0;

		for (int cpu = 0; cpu < r->r_ld.ld_ncpus; cpu++) {
			size_t i = (size_t)cpu * DT_DROP_NKINDS + (size_t)k;
			unsigned long long n = now[i] - seen[i];

			if (now[i] <= seen[i])
				continue;
			seen[i] = now[i];
			total += n;
			if (!kinds[k].per_cpu)
				continue;
			if (r->r_dr.dr_json)
				dt_json_drop(fp, kinds[k].json, cpu, n);
			message(dtp->dt_droph, dtp->dt_dropharg, "%llu %sdrop%s on CPU %d", n,
				kinds[k].what, n > 1 ? "s" : "", cpu);
		}
		if (kinds[k].per_cpu || total == 0)
			continue;
		if (r->r_dr.dr_json)
			dt_json_drop(fp, kinds[k].json, -1, total);
		message(dtp->dt_droph, dtp->dt_dropharg, "%llu %sdrop%s", total, kinds[k].what,
			total > 1 ? "s" : "");
	}
}

int dt_consume_open(dtrace_hdl_t *dtp, dt_run_t *r)
{
	dt_drain_t *dr = &r->r_dr;
	uint64_t bufsize = dt_option_get(dtp, "bufsize", 4 << 20);
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 1;
	int err;

	/*
	 * illumos' kernel (dtrace_state_buffer) finds no 8-byte aligned size in
	 * a bufsize under 8 and fails the go with ENOMEM; with 0 it makes no
	 * principal buffer at all and drops every record.  A perf buffer is a
	 * page at least, so both are refused here rather than traced into a
	 * buffer the user did not ask for.
	 */
	if (bufsize < 8)
		return dt_set_errno(dtp, ENOMEM);

	/* the consumer's view of each aggregation: its map, normalize()'s factor */
	if (r->r_en.en_naggs > 0 &&
	    (dr->dr_aggs = calloc(r->r_en.en_naggs, sizeof(*dr->dr_aggs))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < r->r_en.en_naggs; i++)
		dr->dr_aggs[i] =
		    (dt_aggview_t){ r->r_en.en_aggs[i], r->r_ld.ld_aggfds[i], 1, false, NULL };
	dr->dr_naggs = r->r_en.en_naggs;
	while (pages * 2 * (uint64_t)page <= bufsize) /* a power of two, bufsize at most */
		pages *= 2;
	/* no lost callback: the programs count what the buffers had no room for (dt_drops) */
	if ((err = ks_perfbuf_create(r->r_ld.ld_fd[DT_MAP_EVENTS], pages, on_sample, NULL, dtp,
				     &dr->dr_pb)) != 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot open the output buffers: %s",
				     strerror(-err));
	return 0;
}

/* ---------------------------------------------------------------- work */

void dtrace_sleep(dtrace_hdl_t *dtp)
{
	dt_run_t *r;
	uint64_t rate;
	struct pollfd p[2];
	int n = 0;

	if (dtp == NULL || (r = dtp->dt_run) == NULL || r->r_dr.dr_pb == NULL)
		return;
	rate = dt_option_get(dtp, "switchrate", 1000000000ULL);
	/* a target that exits is seen at once; a -c child is polled */
	if (r->r_tg.tg_child && !r->r_tg.tg_exited && rate > 50000000ULL)
		rate = 50000000ULL;
	if (r->r_tg.tg_pid > 0 && !r->r_tg.tg_child && r->r_tg.tg_pidfd >= 0)
		p[n++] = (struct pollfd){ .fd = r->r_tg.tg_pidfd, .events = POLLIN };
	p[n++] = (struct pollfd){ .fd = ks_perfbuf_fd(r->r_dr.dr_pb), .events = POLLIN };
	(void)poll(p, (nfds_t)n, (int)(rate / 1000000ULL));
}

dtrace_workstatus_t dtrace_work(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_run_t *r;
	int err;

	if (dtp == NULL)
		return DTRACE_WORKSTATUS_ERROR;
	if ((r = dtp->dt_run) == NULL || r->r_dr.dr_pb == NULL) {
		dt_set_errno(dtp, EDT_NOTRACE);
		return DTRACE_WORKSTATUS_ERROR;
	}
	r->r_dr.dr_out = fp;
	if (dt_load_rescan(dtp, r) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	if ((err = ks_perfbuf_consume(r->r_dr.dr_pb)) < 0) {
		dt_set_errmsg(dtp, EDT_ENABLING, "cannot read the output buffers: %s",
			      strerror(-err));
		return DTRACE_WORKSTATUS_ERROR;
	}
	report_drops(dtp, r);
	if (fp != NULL)
		fflush(fp);
	if (r->r_dr.dr_exited && !r->r_dr.dr_stopped) {
		/* exit(): END now; its records are drained next time */
		dtrace_stop(dtp);
		r->r_dr.dr_status = DTRACE_STATUS_EXITED;
		return DTRACE_WORKSTATUS_OKAY;
	}
	if (r->r_dr.dr_stopped) {
		/* END fired synchronously: one more pass has drained it */
		if (r->r_dr.dr_end_drained)
			return DTRACE_WORKSTATUS_DONE;
		r->r_dr.dr_end_drained = true;
		if (ks_perfbuf_consume(r->r_dr.dr_pb) < 0)
			return DTRACE_WORKSTATUS_ERROR;
		report_drops(dtp, r);
		if (fp != NULL)
			fflush(fp);
		return DTRACE_WORKSTATUS_DONE;
	}
	return DTRACE_WORKSTATUS_OKAY;
}
