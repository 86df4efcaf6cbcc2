/*
 * dt_consume.c -- the consumer: drain the per-CPU buffers, decode records
 * by EPID and print them as dtrace(1) prints them (dt_consume.c and
 * dt_printf.c of illumos are the reference for every format here).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "dt_run.h"

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

int dtrace_handle_errdata(dtrace_hdl_t *dtp, dtrace_errdata_f *func, void *arg)
{
	if (dtp == NULL)
		return -1;
	dtp->dt_errdh = func;
	dtp->dt_errdharg = arg;
	return 0;
}

int dtrace_handle_dropdata(dtrace_hdl_t *dtp, dtrace_dropdata_f *func, void *arg)
{
	if (dtp == NULL)
		return -1;
	dtp->dt_dropdh = func;
	dtp->dt_dropdharg = arg;
	return 0;
}

/*
 * A fault (e) or a drop (dd) reported: its message formatted once, then
 * given to the data handler (dtrace_handle_errdata, _dropdata) with the
 * data, else to the message handler (dtrace_handle_err, _drop), else
 * written to stderr as dtrace(1) writes it.
 */
static void report(dtrace_hdl_t *dtp, dtrace_errdata_t *e, dtrace_dropdata_t *dd, const char *fmt,
		   va_list ap) __attribute__((format(printf, 4, 0)));

static void report(dtrace_hdl_t *dtp, dtrace_errdata_t *e, dtrace_dropdata_t *dd, const char *fmt,
		   va_list ap)
{
	char buf[1024];
	dtrace_msg_f *f = e != NULL ? dtp->dt_errh : dtp->dt_droph;
	void *arg = e != NULL ? dtp->dt_errharg : dtp->dt_dropharg;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (e != NULL && dtp->dt_errdh != NULL) {
		e->dteda_size = sizeof(*e);
		e->dteda_msg = buf;
		dtp->dt_errdh(e, dtp->dt_errdharg);
	} else if (dd != NULL && dtp->dt_dropdh != NULL) {
		dd->dtdda_size = sizeof(*dd);
		dd->dtdda_msg = buf;
		dtp->dt_dropdh(dd, dtp->dt_dropdharg);
	} else if (f != NULL) {
		f(buf, arg);
	} else {
		fprintf(stderr, "dtrace: %s\n", buf);
	}
}

/* A fault or a library action's error. */
static void report_err(dtrace_hdl_t *dtp, dtrace_errdata_t *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report_err(dtrace_hdl_t *dtp, dtrace_errdata_t *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(dtp, e, NULL, fmt, ap);
	va_end(ap);
}

/* A drop report of kind on cpu (-1: all). */
static void report_drop(dtrace_hdl_t *dtp, const char *kind, int cpu, uint64_t n, const char *fmt,
			...) __attribute__((format(printf, 5, 6)));

static void report_drop(dtrace_hdl_t *dtp, const char *kind, int cpu, uint64_t n, const char *fmt,
			...)
{
	dtrace_dropdata_t d = { .dtdda_cpu = cpu, .dtdda_kind = kind, .dtdda_drops = n };
	va_list ap;

	va_start(ap, fmt);
	report(dtp, NULL, &d, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- printing data */

/*
 * Do the bytes look like a string (dt_print_bytes)?  Printable characters
 * (isprint, isspace, \b, \a), then a NUL or the end; for a struct's bytes
 * (whole) only NULs after the first NUL too, as illumos checks.
 */
static bool printable_string(const char *c, size_t n, bool whole)
{
	size_t i;

	if (n == 0 || c[0] == '\0')
		return false;
	for (i = 0; i < n && c[i] != '\0'; i++)
		if (!isprint((unsigned char)c[i]) && !isspace((unsigned char)c[i]) &&
		    c[i] != '\b' && c[i] != '\a')
			return false;
	for (; whole && i < n; i++)
		if (c[i] != '\0')
			return false;
	return true;
}

/*
 * dt_print_bytes: as a string (string: the record's DTRACE_RECF_STRING,
 * printable up to its NUL), else as a hex dump.
 */
static void print_bytes(FILE *fp, const char *c, size_t n, bool string, bool quiet, int width)
{
	if (string) {
		size_t len = strnlen(c, n);

		/* a key of a packed or histogram aggregation has a positive width */
		if (quiet)
			fprintf(fp, "%.*s", (int)len, c);
		else if (width >= 0 && len < n)
			fprintf(fp, " %*.*s", width, (int)len, c);
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
 * pfprint_fp: a float's or a double's bits as the double printf takes (the
 * checker lets only floating-point values reach %e %f %g).
 */
static double rec_double(const dt_rec_t *rec, const uint8_t *data)
{
	if (rec->r_float && rec->r_size == 4) {
		float f;

		memcpy(&f, data + rec->r_off, 4);
		return (double)f;
	}
	if (rec->r_float) {
		double d;

		memcpy(&d, data + rec->r_off, 8);
		return d;
	}
	return rec->r_signed ? (double)rec_int(rec, data) : (double)(uint64_t)rec_int(rec, data);
}

/* The kernel's sym(), func() and mod(), as against the user's u*() */
static bool is_kernel_sym(int kind)
{
	return kind == DT_B_SYM || kind == DT_B_FUNC || kind == DT_B_MOD;
}

int dt_sym_rec_lookup(dtrace_hdl_t *dtp, int kind, uint64_t pid, uint64_t pc, dt_usym_t *u)
{
	if (is_kernel_sym(kind))
		return dt_ksym_lookup(dtp, pc, u);
	return dt_usym_lookup(dtp, (pid_t)pid, pc, u);
}

/*
 * A uaddr(), ufunc(), usym() or umod() record (the process ID, then the
 * address), or a sym(), func() or mod() one (0, then the kernel address),
 * as illumos names it: ufunc, usym, func and sym give the symbol without
 * an offset (dt_print_usym, dt_print_sym move the address to the symbol's
 * start), uaddr with one, umod and mod the object alone; the address in
 * hex where nothing maps it.
 */
void dt_usym_rec_str(dtrace_hdl_t *dtp, const dt_rec_t *rec, const uint8_t *data, char *buf,
		     size_t len)
{
	uint64_t pid, pc;
	dt_usym_t u;

	memcpy(&pid, data + rec->r_off, 8);
	memcpy(&pc, data + rec->r_off + 8, 8);
	if (rec->r_sym == DT_B_UMOD || rec->r_sym == DT_B_MOD) {
		if (dt_sym_rec_lookup(dtp, rec->r_sym, pid, pc, &u) == 0 && u.us_mod != NULL)
			snprintf(buf, len, "%s", u.us_mod);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)pc);
		return;
	}
	if (rec->r_sym != DT_B_UADDR && dt_sym_rec_lookup(dtp, rec->r_sym, pid, pc, &u) == 0 &&
	    u.us_name != NULL)
		pc = u.us_symaddr;
	if (is_kernel_sym(rec->r_sym))
		dt_kaddr_str(dtp, pc, buf, len);
	else
		dt_uaddr_str(dtp, (pid_t)pid, pc, buf, len);
}

/*
 * A frame of a stack as illumos's dt_print_ustack and dt_print_stack name
 * it: module`symbol+0xoffset, module`symbol at its first byte,
 * module`0xpc where no symbol holds it, else 0xpc.  A frame past the
 * first is a return address: its symbol is the one holding pc - 1 (the
 * call), as a call that ends a function (to a noreturn function) returns
 * past its end; the offset is from the recorded pc, as illumos prints it.
 * A return address whose byte before no function holds is a function's
 * first byte that nothing called: the signal trampoline a handler returns
 * to (sa_restorer, libc's __restore_rt, after padding), named as itself.
 */
int dt_frame_lookup(dtrace_hdl_t *dtp, pid_t pid, uint64_t pc, bool ret, dt_usym_t *u)
{
	dt_usym_t at;

	if (pid <= 0)
		return dt_ksym_lookup(dtp, ret ? pc - 1 : pc, u);
	if (dt_usym_lookup(dtp, pid, ret ? pc - 1 : pc, u) != 0)
		return -1;
	if (ret && u->us_name == NULL && dt_usym_lookup(dtp, pid, pc, &at) == 0 &&
	    at.us_name != NULL)
		*u = at;
	return 0;
}

void dt_frame_str(dtrace_hdl_t *dtp, pid_t pid, uint64_t pc, bool ret, char *buf, size_t len)
{
	dt_usym_t u;
	bool known = dt_frame_lookup(dtp, pid, pc, ret, &u) == 0;

	dt_usym_str(&u, known, pc, buf, len);
}

/*
 * A stack record (DT_RK_STACK), as illumos's dt_print_stack and
 * dt_print_ustack: a newline, then each frame on a line of its own,
 * indented by indent (stackindent), in fmt (printa's %k: the conversion
 * as %s; NULL: as it is), until the first zero PC.
 */
void dt_print_stack(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data,
		    const char *fmt, int indent)
{
	const uint8_t *p = data + rec->r_off;
	uint64_t pid = 0, pc;
	char buf[PATH_MAX + 64];

	if (rec->r_sym != DT_B_STACK) {
		memcpy(&pid, p, 8);
		p += 8;
	}
	fputc('\n', fp);
	for (uint32_t i = 0; i < rec->r_nframes; i++) {
		memcpy(&pc, p + 8 * i, 8);
		if (pc == 0)
			break;
		dt_frame_str(dtp, (pid_t)pid, pc, i > 0, buf, sizeof(buf));
		fprintf(fp, "%*s", indent, "");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* printa's %k, made %s */
		fprintf(fp, fmt != NULL ? fmt : "%s", buf);
#pragma GCC diagnostic pop
		fputc('\n', fp);
	}
}

/*
 * A decoded value (a traced one, an aggregation key), as illumos's
 * dt_print_datum prints it: a stack's frames a line each, a symbol in 50
 * columns, bytes as a string (strwidth columns) or a dump as the record's
 * flags say, anything else as an integer by its size (a float's bits).
 */
void dt_print_rec(dtrace_hdl_t *dtp, FILE *fp, const dtrace_record_t *r, bool quiet, int strwidth)
{
	uint64_t v = 0;

	if (r->dtr_kind == DTRACE_REC_STACK) {
		int indent = (int)dt_option_get(dtp, "stackindent", DT_STACKINDENT);

		fputc('\n', fp);
		for (unsigned i = 0; i < r->dtr_nframes; i++)
			fprintf(fp, "%*s%s\n", indent, "", r->dtr_frames[i]);
		return;
	}
	if (r->dtr_kind == DTRACE_REC_SYM) { /* dt_print_usym, dt_print_umod: "  %-50s" */
		fprintf(fp, "  %-50s", r->dtr_str);
		return;
	}
	if (r->dtr_flags & (DTRACE_RECF_STRING | DTRACE_RECF_DUMP)) {
		print_bytes(fp, r->dtr_data, r->dtr_datalen, r->dtr_flags & DTRACE_RECF_STRING,
			    quiet, strwidth);
		return;
	}
	if (r->dtr_data != NULL)
		memcpy(&v, r->dtr_data, r->dtr_datalen < 8 ? r->dtr_datalen : 8);
	switch (r->dtr_datalen) {
	case 8: fprintf(fp, quiet ? "%lld" : " %16lld", (long long)v); break;
	case 4: fprintf(fp, quiet ? "%d" : " %8d", (int)(uint32_t)v); break;
	case 2: fprintf(fp, quiet ? "%d" : " %5d", (int)(uint16_t)v); break;
	default: fprintf(fp, quiet ? "%d" : " %3d", (int)(uint8_t)v); break;
	}
}

/* A record's value as dt_print_rec prints it, decoded first (aggregation keys). */
void dt_print_datum(dtrace_hdl_t *dtp, FILE *fp, const dt_rec_t *rec, const uint8_t *data,
		    bool quiet, int strwidth)
{
	dt_recmem_t mem = { 0 };
	dtrace_record_t r;

	dt_rec_decode(dtp, rec, data, "key", &r, &mem);
	dt_print_rec(dtp, fp, &r, quiet, strwidth);
	dt_recmem_fini(&mem);
}

/*
 * %S and %C: illumos pfprint_estr and pfprint_echr run strchr2esc over the
 * record's bytes: \0 \a \b \f \n \r \t \v \" and \\ as C writes them,
 * a space as itself, other bytes outside '!'..'~' as three octal digits;
 * it stops after the first NUL, which it writes too ("\0": a string
 * shorter than its record ends so, as in illumos).
 */
static char *esc_string(const char *s, size_t n)
{
	char *out = malloc(n * 4 + 1), *q = out;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = strchr("\\\"", c);
		static const char from[] = "\a\b\f\n\r\t\v", to[] = "abfnrtv";
		const char *f = c != '\0' ? strchr(from, c) : NULL;

		if (c == '\0') {
			*q++ = '\\';
			*q++ = '0';
			break;
		}
		if (f != NULL) {
			*q++ = '\\';
			*q++ = to[f - from];
		} else if (e != NULL) {
			*q++ = '\\';
			*q++ = (char)c;
		} else if (c != ' ' && (c < '!' || c > '~')) {
			*q++ = '\\';
			*q++ = (char)('0' + ((c >> 6) & 3));
			*q++ = (char)('0' + ((c >> 3) & 7));
			*q++ = (char)('0' + (c & 7));
		} else {
			*q++ = (char)c;
		}
	}
	*q = '\0';
	return out;
}

/* spec: a conversion dt_print_printf rebuilt from a checked format */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/*
 * %I: illumos pfprint_inetaddr.  A string holding an IPv4 address (no ':')
 * or an IPv6 one prints as the host's name when the resolver knows it
 * (gethostbyaddr: /etc/hosts, then DNS, as nsswitch.conf says), else as
 * itself.  illumos compares inet_pton's result with -1, so a string that
 * is no address goes to the lookup too; it finds nothing there and the
 * string prints as itself, which is what this does without the lookup.
 */
static void print_inetaddr(FILE *fp, const char *spec, const char *s)
{
	unsigned char addr[16];
	char buf[1024];
	struct hostent he, *res = NULL;
	int err, af = strchr(s, ':') == NULL ? AF_INET : AF_INET6;

	if (inet_pton(af, s, addr) == 1 &&
	    gethostbyaddr_r(addr, af == AF_INET ? 4 : 16, af, &he, buf, sizeof(buf), &res, &err) ==
		0 &&
	    res != NULL && res->h_name != NULL)
		s = res->h_name;
	fprintf(fp, spec, s);
}

/*
 * %P: illumos pfprint_port.  A uint16_t port in host order prints as its
 * service's name (getservbyport, any protocol: /etc/services), else as a
 * decimal number.
 */
static void print_port(FILE *fp, const char *spec, uint16_t port)
{
	char buf[1024], num[8];
	struct servent se, *res = NULL;

	if (getservbyport_r(htons(port), NULL, &se, buf, sizeof(buf), &res) == 0 && res != NULL &&
	    res->s_name != NULL) {
		fprintf(fp, spec, res->s_name);
		return;
	}
	snprintf(num, sizeof(num), "%d", port);
	fprintf(fp, spec, num);
}

/*
 * %ls and %ws: illumos pfprint_wstr copies the array's bytes and ends them
 * with a NUL wide character after the last element, so a string that fills
 * its array ends there.  wchar_t is glibc's (4 bytes, UCS-4) and the
 * conversion to bytes is printf(3)'s %ls in the C locale, as dtrace(1)
 * never calls setlocale(3) (nor does illumos's): characters 1 to 0x7f are
 * their byte; one above fails the conversion, which then prints nothing
 * (illumos's vfprintf fails too, and dtrace(1) stops with "Illegal byte
 * sequence").  The precision counts bytes.  %wc and %ws are Solaris's
 * names for %lc and %ls, which glibc's printf(3) does not know.
 */
static void print_wstr(FILE *fp, const char *spec, const uint8_t *p, size_t size)
{
	size_t n = size / sizeof(wchar_t);
	wchar_t *ws = calloc(n + 1, sizeof(wchar_t));

	if (ws == NULL)
		return;
	memcpy(ws, p, n * sizeof(wchar_t));
	fprintf(fp, spec, ws);
	free(ws);
}

/*
 * One printf( ): the format's conversions take the records in order.  Each
 * conversion is rebuilt from its checked parts (flags, width, precision and
 * a conversion chosen here) before it reaches fprintf.
 */
void dt_print_printf(dtrace_hdl_t *dtp, FILE *fp, const char *fmt, const dt_rec_t *recs, int nrecs,
		     const uint8_t *data)
{
	int ri = 0;

	for (const char *p = fmt; *p != '\0';) {
		char spec[64], conv;
		size_t sl = 0;
		int width = 0, prec = -1;
		bool have_w = false, have_p = false, wide = false;
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
				} else if (*p != '\0' && strchr("hlLwjzt", *p) != NULL) {
					wide = wide || *p == 'l' || *p == 'w';
					continue;
				} else
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
			if (c == 'c' && wide) { /* %lc %wc: a wint_t, as %ls converts it */
				snprintf(spec + sl, sizeof(spec) - sl, "lc");
				fprintf(fp, spec, (wint_t)(int32_t)v);
			} else if (c == 'c') {
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
			if (rec->r_float && rec->r_size == sizeof(long double)) {
				/* pfprint_fp: a long double by its size, with an L */
				long double ld;

				memcpy(&ld, data + rec->r_off, sizeof(ld));
				snprintf(spec + sl, sizeof(spec) - sl, "L%c", conv);
				fprintf(fp, spec, ld);
				break;
			}
			snprintf(spec + sl, sizeof(spec) - sl, "%c", conv);
			fprintf(fp, spec, rec_double(rec, data));
			break;
		case 'P':
			snprintf(spec + sl, sizeof(spec) - sl, "s");
			print_port(fp, spec, (uint16_t)rec_int(rec, data));
			break;
		case 'I': {
			char *s = rec->r_kind == DT_RK_INT
				      ? NULL
				      : strndup((const char *)data + rec->r_off, rec->r_size);

			snprintf(spec + sl, sizeof(spec) - sl, "s");
			print_inetaddr(fp, spec, s != NULL ? s : "");
			free(s);
			break;
		}
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
		case 'k': /* pfprint_stack: a '-' width is the indent */
			snprintf(spec + sl, sizeof(spec) - sl, "s");
			if (rec->r_kind == DT_RK_STACK)
				dt_print_stack(dtp, fp, rec, data, spec,
					       strchr(spec, '-') != NULL ? width : 0);
			break;
		case 'a':
		case 'A': {
			char buf[PATH_MAX + 64];
			uint64_t pid = 0, pc;

			if (rec->r_kind == DT_RK_USYM) { /* pfprint_uaddr: the address named */
				memcpy(&pid, data + rec->r_off, 8);
				memcpy(&pc, data + rec->r_off + 8, 8);
			} else {
				pc = (uint64_t)rec_int(rec, data);
				if (conv == 'A' && dtp != NULL && dtp->dt_run != NULL)
					pid = (uint64_t)dtp->dt_run->r_tg.tg_pid; /* $target */
			}
			if (pid != 0)
				dt_uaddr_str(dtp, (pid_t)pid, pc, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)pc);
			snprintf(spec + sl, sizeof(spec) - sl, "s");
			fprintf(fp, spec, buf);
			break;
		}
		case 'C': { /* pfprint_echr: the char, escaped as %S escapes */
			char c = (char)rec_int(rec, data), *e = esc_string(&c, 1);

			snprintf(spec + sl, sizeof(spec) - sl, "s");
			fprintf(fp, spec, e != NULL ? e : "");
			free(e);
			break;
		}
		case 'S':
			if (rec->r_kind != DT_RK_INT) {
				char *e = esc_string((const char *)data + rec->r_off, rec->r_size);

				snprintf(spec + sl, sizeof(spec) - sl, "s");
				fprintf(fp, spec, e != NULL ? e : "");
				free(e);
				break;
			}
			/* FALLTHROUGH */
		default: /* s */
			if (wide) {
				snprintf(spec + sl, sizeof(spec) - sl, "ls");
				print_wstr(fp, spec, data + rec->r_off, rec->r_size);
				break;
			}
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

/* ---------------------------------------------------------------- print() */

/*
 * print(p) as Oracle's dtrace 2 prints it (its tests' expected output,
 * test/unittest/print): "0xADDR = *", then the value with its type in
 * parentheses, each line indented to the column where the data of a
 * probe's line starts (44, after "CPU ID FUNCTION:NAME"), one more per
 * level; members and elements that are all zeros are left out, a char
 * array ends at its first NUL, an enum names its value.
 */
#define DT_PRINT_INDENT 44

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* The type as the parentheses spell it: "struct s", "union", "char [5]", "uint64_t". */
static void print_tname(const dt_type_t *t, char *buf, size_t len)
{
	const dt_type_t *r = dt_type_resolve(t);

	if (t->dtt_kind == DT_TK_ARRAY ||
	    (t->dtt_kind != DT_TK_TYPEDEF && r != NULL && r->dtt_kind == DT_TK_ARRAY)) {
		char e[256];

		print_tname(r->dtt_ref, e, sizeof(e));
		snprintf(buf, len, "%s [%zu]", e, r->dtt_nelems);
		return;
	}
	if ((t->dtt_kind == DT_TK_STRUCT || t->dtt_kind == DT_TK_UNION) &&
	    (t->dtt_name == NULL || t->dtt_name[0] == '\0')) {
		snprintf(buf, len, "%s", t->dtt_kind == DT_TK_STRUCT ? "struct" : "union");
		return;
	}
	dt_type_name(t, buf, len);
}

static uint64_t load_uint(const uint8_t *p, size_t sz)
{
	uint64_t v = 0;

	memcpy(&v, p, sz < 8 ? sz : 8); /* little-endian: the low bytes first */
	return v;
}

static void print_scalar(FILE *fp, const dt_type_t *t, const uint8_t *p)
{
	const dt_type_t *r = dt_type_resolve(t);
	size_t sz = dt_type_size(r);
	uint64_t u = load_uint(p, sz);

	if (r->dtt_kind == DT_TK_PTR) {
		fprintf(fp, "0x%llx", (unsigned long long)u);
		return;
	}
	if (r->dtt_kind == DT_TK_FLOAT) {
		if (sz == 4) {
			float f;

			memcpy(&f, p, 4);
			fprintf(fp, "%f", (double)f);
		} else if (sz == 8) {
			double d;

			memcpy(&d, p, 8);
			fprintf(fp, "%f", d);
		} else { /* a long double, with %f's digits too */
			long double ld;

			memcpy(&ld, p, sizeof(ld));
			fprintf(fp, "%Lf", ld);
		}
		return;
	}
	if (r->dtt_kind == DT_TK_ENUM) {
		int64_t v = (int32_t)u;

		for (const dt_member_t *e = r->dtt_tag != NULL ? r->dtt_tag->td_enums : NULL;
		     e != NULL; e = e->dm_next)
			if ((int64_t)e->dm_off == v) {
				fputs(e->dm_name, fp);
				return;
			}
		fprintf(fp, "%lld", (long long)v);
		return;
	}
	if (r->dtt_name != NULL && sz == 1 && strcmp(r->dtt_name, "char") == 0 && isprint((int)u)) {
		fprintf(fp, "'%c'", (int)u);
		return;
	}
	if (r->dtt_flags & DT_TF_SIGNED) {
		int64_t v = sz >= 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * sz)) >> (64 - 8 * sz);

		fprintf(fp, "%lld", (long long)v);
	} else {
		fprintf(fp, "%llu", (unsigned long long)u);
	}
}

static void print_value(FILE *fp, const dt_type_t *t, const uint8_t *p, int depth, const char *name)
{
	const dt_type_t *r = dt_type_resolve(t);
	char tn[512];

	print_tname(t, tn, sizeof(tn));
	fprintf(fp, "%*s", DT_PRINT_INDENT + depth, "");
	if (name != NULL)
		fprintf(fp, ".%s = ", name);
	fprintf(fp, "(%s)", tn);
	if (r->dtt_kind == DT_TK_STRUCT || r->dtt_kind == DT_TK_UNION) {
		fputs(" {\n", fp);
		for (const dt_member_t *m = r->dtt_tag != NULL ? r->dtt_tag->td_members : NULL;
		     m != NULL; m = m->dm_next) {
			size_t msz = dt_type_size(m->dm_type);

			if (m->dm_name == NULL || m->dm_bits != 0 || all_zero(p + m->dm_off, msz))
				continue; /* padding, bit-fields (not printed), zeros */
			print_value(fp, m->dm_type, p + m->dm_off, depth + 1, m->dm_name);
		}
		fprintf(fp, "%*s}", DT_PRINT_INDENT + depth, "");
	} else if (r->dtt_kind == DT_TK_ARRAY) {
		const dt_type_t *e = dt_type_resolve(r->dtt_ref);
		size_t esz = dt_type_size(e);
		bool chars = e->dtt_kind == DT_TK_INT && esz == 1 && e->dtt_name != NULL &&
			     strcmp(e->dtt_name, "char") == 0;

		fputs(" [\n", fp);
		for (size_t i = 0; esz > 0 && i < r->dtt_nelems; i++) {
			if (chars && p[i] == 0)
				break;
			if (all_zero(p + i * esz, esz))
				continue;
			print_value(fp, r->dtt_ref, p + i * esz, depth + 1, NULL);
		}
		fprintf(fp, "%*s]", DT_PRINT_INDENT + depth, "");
	} else {
		print_scalar(fp, t, p);
	}
	fputs(depth > 0 ? ",\n" : "\n", fp);
}

/* print()'s record: its pointer, then the value it points to by the action's type. */
void dt_print_typed(FILE *fp, const dtrace_record_t *r, const dt_type_t *type)
{
	fprintf(fp, "0x%llx = *\n", (unsigned long long)r->dtr_uint);
	print_value(fp, type, r->dtr_data, 0, NULL);
}

/* ---------------------------------------------------------------- records for callbacks */

#define DT_RECMEM_BLOCK 16384

/* p kept until the reset */
static int recmem_keep(dt_recmem_t *m, void *p)
{
	if (dt_grow(&m->rm_ptrs, &m->rm_cap, m->rm_n, sizeof(void *), 16) != 0)
		return -1;
	m->rm_ptrs[m->rm_n++] = p;
	return 0;
}

void *dt_recmem_alloc(dt_recmem_t *m, size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	if (m->rm_block != NULL && n <= DT_RECMEM_BLOCK - m->rm_used) {
		p = m->rm_block + m->rm_used;
		m->rm_used += n;
		memset(p, 0, n);
		return p;
	}
	if (n > DT_RECMEM_BLOCK / 4) { /* one of its own */
		if ((p = calloc(1, n)) == NULL || recmem_keep(m, p) != 0) {
			free(p);
			m->rm_failed = true;
			return NULL;
		}
		return p;
	}
	/* a new block; the full one is freed at the reset */
	if ((p = malloc(DT_RECMEM_BLOCK)) == NULL ||
	    (m->rm_block != NULL && recmem_keep(m, m->rm_block) != 0)) {
		free(p);
		m->rm_failed = true;
		return NULL;
	}
	m->rm_block = p;
	m->rm_used = n;
	memset(p, 0, n);
	return p;
}

static char *recmem_strndup(dt_recmem_t *m, const char *s, size_t n)
{
	char *p = dt_recmem_alloc(m, n + 1);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

void dt_recmem_reset(dt_recmem_t *m)
{
	for (size_t i = 0; i < m->rm_n; i++)
		free(m->rm_ptrs[i]);
	m->rm_n = 0;
	m->rm_used = 0;
	m->rm_failed = false;
}

void dt_recmem_fini(dt_recmem_t *m)
{
	dt_recmem_reset(m);
	free(m->rm_ptrs);
	free(m->rm_block);
	m->rm_ptrs = NULL;
	m->rm_block = NULL;
	m->rm_cap = 0;
}

/*
 * A stack record's frames: the PCs up to the first zero, each named as
 * dt_print_stack names it.
 */
static void decode_stack(dtrace_hdl_t *dtp, const dt_rec_t *rec, const uint8_t *data,
			 dtrace_record_t *out, dt_recmem_t *mem)
{
	const uint8_t *p = data + rec->r_off;
	uint64_t pid = 0, pc, *pcs, *offs;
	const char **frames, **mods, **syms;
	unsigned n = 0;
	char buf[PATH_MAX + 64];

	if (rec->r_sym != DT_B_STACK) {
		memcpy(&pid, p, 8);
		p += 8;
	}
	out->dtr_kind = DTRACE_REC_STACK;
	out->dtr_pid = (int)pid;
	pcs = dt_recmem_alloc(mem, (rec->r_nframes + 1) * sizeof(*pcs));
	frames = dt_recmem_alloc(mem, (rec->r_nframes + 1) * sizeof(*frames));
	if (pcs == NULL || frames == NULL)
		return;
	mods = dt_recmem_alloc(mem, (rec->r_nframes + 1) * sizeof(*mods));
	syms = dt_recmem_alloc(mem, (rec->r_nframes + 1) * sizeof(*syms));
	offs = dt_recmem_alloc(mem, (rec->r_nframes + 1) * sizeof(*offs));
	if (mods == NULL || syms == NULL || offs == NULL)
		return;
	for (; n < rec->r_nframes; n++) {
		dt_usym_t u;

		memcpy(&pc, p + 8 * n, 8);
		if (pc == 0)
			break;
		dt_frame_str(dtp, (pid_t)pid, pc, n > 0, buf, sizeof(buf));
		pcs[n] = pc;
		if ((frames[n] = recmem_strndup(mem, buf, strlen(buf))) == NULL)
			break;
		/* the strings of a look-up last as long as the handle */
		if (dt_frame_lookup(dtp, (pid_t)pid, pc, n > 0, &u) == 0) {
			mods[n] = u.us_mod;
			syms[n] = u.us_name;
			offs[n] = u.us_name != NULL ? pc - u.us_symaddr : 0;
		}
	}
	out->dtr_nframes = n;
	out->dtr_pcs = pcs;
	out->dtr_frames = frames;
	out->dtr_fmodules = mods;
	out->dtr_fsymbols = syms;
	out->dtr_foffsets = offs;
}

/*
 * The value of one record, as the text output reads it: an integer by its
 * type's size and sign (as dt_print_datum and json_int), a float's bits,
 * a string to its NUL, bytes, a symbol or a stack named as printed.
 */
void dt_rec_decode(dtrace_hdl_t *dtp, const dt_rec_t *rec, const uint8_t *data, const char *action,
		   dtrace_record_t *out, dt_recmem_t *mem)
{
	const char *c = (const char *)data + rec->r_off;

	memset(out, 0, sizeof(*out));
	out->dtr_size = sizeof(*out);
	out->dtr_action = action;
	out->dtr_type = rec->r_tname != NULL	   ? rec->r_tname
			: rec->r_kind == DT_RK_STR ? "string"
						   : "";
	out->dtr_data = c;
	out->dtr_datalen = rec->r_size;
	/* as dt_print_bytes: a struct's bytes (whole) only NULs after the string */
	if (rec->r_kind == DT_RK_STR || rec->r_kind == DT_RK_BYTES)
		out->dtr_flags = printable_string(c, rec->r_size, rec->r_kind == DT_RK_BYTES)
				     ? DTRACE_RECF_STRING
				     : DTRACE_RECF_DUMP;
	else if (rec->r_kind == DT_RK_MEM)
		out->dtr_flags = DTRACE_RECF_DUMP;
	if (rec->r_float) {
		out->dtr_kind = DTRACE_REC_FLOAT;
		out->dtr_width = rec->r_size;
		if (rec->r_size == 4) {
			float f;

			memcpy(&f, c, 4);
			out->dtr_float = f;
		} else if (rec->r_size == sizeof(long double)) {
			long double ld;

			memcpy(&ld, c, sizeof(ld));
			out->dtr_float = (double)ld;
		} else {
			memcpy(&out->dtr_float, c, 8);
		}
		return;
	}
	switch (rec->r_kind) {
	case DT_RK_INT: {
		unsigned w = rec->r_size >= 1 && rec->r_size < 8 ? rec->r_size : 8;
		uint64_t v, mask = w < 8 ? (1ULL << (8 * w)) - 1 : ~0ULL;

		memcpy(&v, c, 8);
		v &= mask;
		out->dtr_kind = DTRACE_REC_INT;
		out->dtr_width = w;
		out->dtr_signed = rec->r_signed;
		out->dtr_uint = v;
		if (rec->r_signed && w < 8 && (v >> (8 * w - 1)) != 0)
			v |= ~mask;
		out->dtr_int = (int64_t)v;
		break;
	}
	case DT_RK_STR:
		out->dtr_kind = DTRACE_REC_STRING;
		out->dtr_len = strnlen(c, rec->r_size);
		/* the record's own bytes when its NUL is in them, else a copy with one */
		out->dtr_str =
		    out->dtr_len < rec->r_size ? c : recmem_strndup(mem, c, out->dtr_len);
		if (out->dtr_str == NULL)
			out->dtr_str = "", out->dtr_len = 0;
		break;
	case DT_RK_MEM:
	case DT_RK_BYTES:
		out->dtr_kind = DTRACE_REC_BYTES;
		out->dtr_bytes = c;
		out->dtr_len = rec->r_size;
		break;
	case DT_RK_USYM: {
		uint64_t pid, pc;
		char buf[PATH_MAX + 64];
		dt_usym_t u;
		bool mod = rec->r_sym == DT_B_UMOD || rec->r_sym == DT_B_MOD;

		memcpy(&pid, c, 8);
		memcpy(&pc, c + 8, 8);
		dt_usym_rec_str(dtp, rec, data, buf, sizeof(buf));
		/* as dt_json's: ufunc and usym by their symbol's start, umod and mod no symbol */
		if (dt_sym_rec_lookup(dtp, rec->r_sym, pid, pc, &u) == 0) {
			if (rec->r_sym != DT_B_UADDR && !mod && u.us_name != NULL)
				pc = u.us_symaddr;
			out->dtr_module = u.us_mod;
			if (!mod && u.us_name != NULL) {
				out->dtr_symbol = u.us_name;
				out->dtr_offset = pc - u.us_symaddr;
			}
		}
		out->dtr_kind = DTRACE_REC_SYM;
		out->dtr_type =
		    is_kernel_sym(rec->r_sym) ? "_symaddr_t" : "_usymaddr_t"; /* illumos's */
		out->dtr_pid = is_kernel_sym(rec->r_sym) ? 0 : (int)pid;
		if (is_kernel_sym(rec->r_sym))
			out->dtr_flags |= DTRACE_RECF_KERNEL;
		out->dtr_uint = pc;
		out->dtr_str = recmem_strndup(mem, buf, strlen(buf));
		if (out->dtr_str == NULL)
			out->dtr_str = "";
		out->dtr_len = strlen(out->dtr_str);
		break;
	}
	case DT_RK_STACK:
		out->dtr_type = "stack";
		if (rec->r_sym == DT_B_STACK)
			out->dtr_flags |= DTRACE_RECF_KERNEL;
		decode_stack(dtp, rec, data, out, mem);
		break;
	}
}

/* ---------------------------------------------------------------- records */

static const char *fault_name(uint64_t f)
{
	switch (f) {
	case DT_FLT_BADADDR: return "invalid address";
	case DT_FLT_DIVZERO: return "divide-by-zero";
	case DT_FLT_ILLOP: return "illegal operation";
	case DT_FLT_NOSCRATCH: return "out of scratch space";
	default: return "unknown fault";
	}
}

static void error_record(dtrace_hdl_t *dtp, const dt_errrec_t *er)
{
	dt_run_t *r = dtp->dt_run;
	const dtrace_probedesc_t *pd;
	char details[40] = "", where[32], offinfo[32] = "";

	if (er->er_epid == 0 || er->er_epid > r->r_en.en_necbs ||
	    r->r_en.en_ecbs[er->er_epid - 1].e_probe == DT_ECB_FREE)
		return;
	pd = &dtp->dt_probes[r->r_en.en_ecbs[er->er_epid - 1].e_probe];
	if (er->er_fault == DT_FLT_BADADDR)
		snprintf(details, sizeof(details), " (0x%llx)", (unsigned long long)er->er_addr);
	if (er->er_action == 0)
		snprintf(where, sizeof(where), "predicate");
	else
		snprintf(where, sizeof(where), "action #%u", er->er_action);
	if (er->er_pc != DT_ERR_NOPC) /* dt_handle_err: offset -1 prints none */
		snprintf(offinfo, sizeof(offinfo), " at DIF offset %u", er->er_pc);
	if (r->r_dr.dr_json && !r->r_dr.dr_consuming)
		dt_json_error(r->r_dr.dr_out != NULL ? r->r_dr.dr_out : stdout, er, pd,
			      fault_name(er->er_fault));
	{
		dtrace_errdata_t e = { .dteda_pdesc = pd,
				       .dteda_epid = er->er_epid,
				       .dteda_action = (int)er->er_action,
				       .dteda_offset =
					   er->er_pc != DT_ERR_NOPC ? (int)er->er_pc : -1,
				       .dteda_fault = fault_name(er->er_fault),
				       .dteda_addr = er->er_addr };

		report_err(dtp, &e,
			   "error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s%s",
			   er->er_epid, pd->dtpd_id, pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func,
			   pd->dtpd_name, fault_name(er->er_fault), details, where, offinfo);
	}
}

/* ---------------------------------------------------------------- library actions */

/* An error of an action the library does, as illumos' dt_handle_liberr words it. */
static void liberr(dtrace_hdl_t *dtp, uint32_t epid, const dtrace_probedesc_t *pd, const char *what)
{
	dtrace_errdata_t e = { .dteda_pdesc = pd,
			       .dteda_epid = epid,
			       .dteda_action = -1,
			       .dteda_offset = -1,
			       .dteda_fault = what };

	report_err(dtp, &e, "error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s", epid,
		   pd->dtpd_id, pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func, pd->dtpd_name,
		   what);
}

/*
 * The string system() and freopen() format, as printf would print it,
 * cut at strsize - 1 bytes (illumos formats into a strsize buffer).  NULL
 * when out of memory.
 */
static char *format_string(dtrace_hdl_t *dtp, const dt_act_t *act, const dt_rec_t *recs,
			   const uint8_t *d)
{
	size_t strsize = dt_option_get(dtp, "strsize", 256), len = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	dt_print_printf(dtp, f, act->a_fmt, act->a_nrecs > 0 ? &recs[act->a_rec] : NULL,
			act->a_nrecs, d);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	if (strsize > 0 && len > strsize - 1)
		buf[strsize - 1] = '\0';
	return buf;
}

/*
 * freopen(): the output goes to the file named from now on (appended to,
 * as illumos opens it "a"); freopen("") puts the first output back.  The
 * stream stays the same: its descriptor is made the file's (dup2), so a
 * failure leaves the output as it was, which illumos gets with
 * /dev/fd/N.
 */
static void reopen_output(dtrace_hdl_t *dtp, dt_drain_t *dr, FILE *fp, const char *name,
			  uint32_t epid, const dtrace_probedesc_t *pd)
{
	int fd;

	fflush(fp);
	if (name[0] == '\0') {
		if (dr->dr_saved_fd >= 0)
			(void)dup2(dr->dr_saved_fd, fileno(fp));
		return;
	}
	if ((fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666)) < 0) {
		char what[PATH_MAX + 128];

		snprintf(what, sizeof(what), "couldn't freopen() \"%s\": %s", name,
			 strerror(errno));
		liberr(dtp, epid, pd, what);
		return;
	}
	if (dr->dr_saved_fd < 0)
		dr->dr_saved_fd = fcntl(fileno(fp), F_DUPFD_CLOEXEC, 0);
	(void)dup2(fd, fileno(fp));
	close(fd);
}

/* The options setopt() may not change while tracing: illumos' run-time ones. */
static bool fixed_option(const char *name)
{
	static const char *const fixed[] = { "aggsize",	      "bufpolicy",   "bufresize",
					     "bufsize",	      "cleanrate",   "cpu",
					     "destructive",   "dynvarsize",  "jstackframes",
					     "jstackstrsize", "nspec",	     "scratchsize",
					     "specsize",      "stackframes", "statusrate",
					     "strsize",	      "ustackframes" };

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (strcmp(fixed[i], name) == 0)
			return true;
	return false;
}

/* setopt(name[, value]), as illumos' dt_setopt: a failure is a library error. */
static void set_option(dtrace_hdl_t *dtp, dt_drain_t *dr, const dt_act_t *act, const dt_rec_t *recs,
		       const uint8_t *d, uint32_t epid, const dtrace_probedesc_t *pd)
{
	const dt_rec_t *rn = &recs[act->a_rec];
	char *name = strndup((const char *)d + rn->r_off, rn->r_size), *val = NULL;
	int err = 0;

	if (act->a_nrecs > 1)
		val = strndup((const char *)d + recs[act->a_rec + 1].r_off,
			      recs[act->a_rec + 1].r_size);
	if (name == NULL || (act->a_nrecs > 1 && val == NULL)) {
		dr->dr_error = ENOMEM;
	} else if (fixed_option(name)) {
		err = EDT_ACTIVE;
	} else if (dt_option_set(dtp, name, val) != 0) {
		err = dtrace_errno(dtp);
	} else {
		dr->dr_quiet = dt_option_get(dtp, "quiet", 0) != 0;
		dr->dr_flow = dt_option_isset(dtp, "flowindent"); /* as dt_consume_cpu */
	}
	if (err != 0) {
		char what[1024];

		/* illumos' message ends with a newline of its own, before dtrace(1)'s */
		snprintf(what, sizeof(what), "couldn't set option \"%s\" to \"%s\": %s\n", name,
			 val != NULL ? val : "1", dtrace_errmsg(NULL, err));
		liberr(dtp, epid, pd, what);
	}
	free(name);
	free(val);
}

static void spec_ops(dtrace_hdl_t *dtp, const dt_stmt_t *st, const uint8_t *d);

/* A probe name "entry" or ending in "-entry" (kind "entry"), as dt_flowindent reads it. */
static bool flow_name(const char *n, const char *kind)
{
	size_t ln = strlen(n), lk = strlen(kind);

	return ln >= lk && strcmp(n + ln - lk, kind) == 0 && (ln == lk || n[ln - lk - 1] == '-');
}

/*
 * -F: dtrace(1)'s chew with g_flowindent, after illumos dt_flowindent.  An
 * entry probe prints " -> func" (" => " for syscall) and indents what follows
 * by 2; a return probe unindents by 2 and prints " <- func" (" <= "); any
 * other probe prints "| func:name" at the current indent; header and column
 * are printed under -q too, as dtrace(1) does.  A second clause of the same
 * entry probe does not indent again (the last record was another EPID of
 * the probe), and a return does not unindent when the record after it (on
 * its CPU) is another clause's of the same probe: on_sample holds it.
 */
static void flow_column(dtrace_hdl_t *dtp, FILE *fp, int cpu, uint32_t epid,
			const dtrace_probedesc_t *pd)
{
	dt_run_t *r = dtp->dt_run;
	dt_drain_t *dr = &r->r_dr;
	size_t probe = r->r_en.en_ecbs[epid - 1].e_probe;
	bool sys = strcmp(pd->dtpd_provider, "syscall") == 0;
	const char *prefix = "| ";
	int flow = 0; /* 1 entry, -1 return */
	size_t len;

	if (flow_name(pd->dtpd_name, "entry")) {
		flow = 1;
		prefix = sys ? " => " : " -> ";
		if (dr->dr_last_epid != 0 && dr->dr_last_epid != epid &&
		    r->r_en.en_ecbs[dr->dr_last_epid - 1].e_probe == probe)
			flow = 0;
	} else if (flow_name(pd->dtpd_name, "return")) {
		flow = dr->dr_pend_same ? 0 : -1;
		prefix = sys ? " <= " : " <- ";
	}
	dr->dr_pend_same = false;
	if (flow == 0)
		prefix = "| ";
	if (flow < 0 && dr->dr_indent > 0)
		dr->dr_indent -= 2;
	if (!dr->dr_header_done)
		fprintf(fp, "%3s %-41s\n", "CPU", "FUNCTION");
	dr->dr_header_done = true;
	/* "%-41s" of indent, prefix, func[:name], without building the string */
	len = (size_t)dr->dr_indent + strlen(prefix) + strlen(pd->dtpd_func) +
	      (flow == 0 ? 1 + strlen(pd->dtpd_name) : 0);
	fprintf(fp, "%3d %*s%s%s%s%s%*s ", cpu, dr->dr_indent, "", prefix, pd->dtpd_func,
		flow == 0 ? ":" : "", flow == 0 ? pd->dtpd_name : "",
		len < 41 ? (int)(41 - len) : 0, "");
	if (flow > 0)
		dr->dr_indent += 2;
	dr->dr_last_epid = epid;
}

/*
 * An action the library does when it reads the record (illumos's library
 * actions), for the text output and for dtrace_consume alike: system(),
 * freopen(), ftruncate() (on fp; not without one), setopt(), clear(),
 * trunc(), normalize(), denormalize(), exit().  Commits and discards come
 * after the record (spec_ops); printing actions are the caller's.
 */
static void lib_action(dtrace_hdl_t *dtp, FILE *fp, const dt_act_t *act, const dt_stmt_t *st,
		       const uint8_t *d, uint32_t epid, const dtrace_probedesc_t *pd)
{
	dt_run_t *r = dtp->dt_run;

	switch (act->a_kind) {
	case DT_A_SYSTEM:
	case DT_A_FREOPEN: {
		char *s;

		if (act->a_kind == DT_A_FREOPEN && fp == NULL)
			break;
		if ((s = format_string(dtp, act, st->st_recs, d)) == NULL) {
			r->r_dr.dr_error = ENOMEM;
			break;
		}
		if (act->a_kind == DT_A_FREOPEN) {
			reopen_output(dtp, &r->r_dr, fp, s, epid, pd);
		} else {
			/* what was printed before comes before the command's output */
			if (fp != NULL)
				fflush(fp);
			fflush(stdout);
			if (system(s) == -1)
				r->r_dr.dr_error = errno;
		}
		free(s);
		break;
	}
	case DT_A_FTRUNCATE:
		if (fp == NULL)
			break;
		fflush(fp);
		if (ftruncate(fileno(fp), 0) == 0)
			(void)fseeko(fp, 0, SEEK_SET);
		break;
	case DT_A_SETOPT: set_option(dtp, &r->r_dr, act, st->st_recs, d, epid, pd); break;
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
	default: break;
	}
}

static const char *const act_names[] = {
	[DT_A_TRACE] = "trace",		[DT_A_PRINTF] = "printf",
	[DT_A_EXIT] = "exit",		[DT_A_TRACEMEM] = "tracemem",
	[DT_A_PRINT] = "print",		[DT_A_PRINTA] = "printa",
	[DT_A_CLEAR] = "clear",		[DT_A_TRUNC] = "trunc",
	[DT_A_NORMALIZE] = "normalize", [DT_A_DENORMALIZE] = "denormalize",
	[DT_A_SYSTEM] = "system",	[DT_A_FREOPEN] = "freopen",
	[DT_A_FTRUNCATE] = "ftruncate", [DT_A_SETOPT] = "setopt",
	[DT_A_COMMIT] = "commit",	[DT_A_DISCARD] = "discard",
};

/* The names of the aggregations an action names, without their @. */
static void act_aggs(dtrace_hdl_t *dtp, const dt_act_t *act, dtrace_record_t *out, dt_recmem_t *mem)
{
	dt_drain_t *dr = &dtp->dt_run->r_dr;
	const char **names;

	if (act->a_naggs <= 0 ||
	    (names = dt_recmem_alloc(mem, (size_t)act->a_naggs * sizeof(*names))) == NULL)
		return;
	for (int i = 0; i < act->a_naggs; i++) {
		uint32_t id = act->a_aggs[i];

		names[i] = id >= 1 && id <= dr->dr_naggs ? dr->dr_aggs[id - 1].av_ag->ag_name : "";
	}
	out->dtr_aggnames = names;
	out->dtr_naggs = (unsigned)act->a_naggs;
}

/*
 * The text of printf() (system(), freopen()) of a record, formatted into
 * the drain's stream: kept from record to record, it costs no allocation
 * once grown.  Valid until the next call; NULL when out of memory.
 */
static const char *format_text(dtrace_hdl_t *dtp, const dt_act_t *act, const dt_rec_t *recs,
			       const uint8_t *d, size_t *lenp)
{
	dt_drain_t *dr = &dtp->dt_run->r_dr;

	if (dr->dr_pf == NULL && (dr->dr_pf = open_memstream(&dr->dr_pfbuf, &dr->dr_pflen)) == NULL)
		return NULL;
	if (fseeko(dr->dr_pf, 0, SEEK_SET) != 0)
		return NULL;
	dt_print_printf(dtp, dr->dr_pf, act->a_fmt, recs, act->a_nrecs, d);
	/* a conversion that fails (%ls of a character beyond ASCII) stops as on any stream */
	clearerr(dr->dr_pf);
	/* the stream ends its text with a NUL only where it grew: one of ours */
	if (fputc('\0', dr->dr_pf) == EOF || fflush(dr->dr_pf) != 0 || dr->dr_pflen == 0)
		return NULL;
	*lenp = dr->dr_pflen - 1;
	return dr->dr_pfbuf;
}

/* The record of one action of a firing (d: its data), for the callbacks and the printers. */
static void act_record(dtrace_hdl_t *dtp, const dt_stmt_t *st, const dt_act_t *act,
		       const uint8_t *d, dtrace_record_t *out, dt_recmem_t *mem)
{
	const dt_rec_t *recs = act->a_nrecs > 0 ? &st->st_recs[act->a_rec] : NULL;
	const char *name = act_names[act->a_kind];

	memset(out, 0, sizeof(*out));
	out->dtr_size = sizeof(*out);
	out->dtr_action = name;
	out->dtr_type = "";
	out->dtr_kind = DTRACE_REC_OTHER;
	switch (act->a_kind) {
	case DT_A_TRACE:
		/* stack(), ustack(), jstack() are actions of their own, traced as a record */
		if (recs[0].r_kind == DT_RK_STACK)
			name = recs[0].r_sym == DT_B_STACK    ? "stack"
			       : recs[0].r_sym == DT_B_JSTACK ? "jstack"
							      : "ustack";
		dt_rec_decode(dtp, &recs[0], d, name, out, mem);
		break;
	case DT_A_TRACEMEM: {
		/* tracemem(a, size, dsize): dsize bytes, all when 0 or more than size */
		dt_rec_t mem_rec = recs[act->a_nrecs - 1];
		uint64_t dsize = act->a_nrecs > 1 ? (uint64_t)rec_int(&recs[0], d) : 0;

		if (dsize != 0 && dsize < mem_rec.r_size)
			mem_rec.r_size = (uint32_t)dsize;
		dt_rec_decode(dtp, &mem_rec, d, name, out, mem);
		break;
	}
	case DT_A_PRINT: {
		char tn[512];

		dt_rec_decode(dtp, &recs[1], d, name, out, mem);
		out->dtr_uint = (uint64_t)rec_int(&recs[0], d);
		dt_type_name(act->a_type, tn, sizeof(tn));
		out->dtr_type = recmem_strndup(mem, tn, strlen(tn));
		if (out->dtr_type == NULL)
			out->dtr_type = "";
		break;
	}
	case DT_A_PRINTF:
	case DT_A_SYSTEM:
	case DT_A_FREOPEN: {
		dtrace_record_t *args;

		out->dtr_str = format_text(dtp, act, recs, d, &out->dtr_len);
		/* a callback's text lasts the firing, as the other records' memory does */
		if (out->dtr_str != NULL && dtp->dt_run->r_dr.dr_consuming)
			out->dtr_str = recmem_strndup(mem, out->dtr_str, out->dtr_len);
		if (out->dtr_str == NULL) {
			mem->rm_failed = true;
			out->dtr_str = "";
			out->dtr_len = 0;
		}
		if (act->a_kind != DT_A_PRINTF)
			break;
		out->dtr_kind = DTRACE_REC_PRINTF;
		if (act->a_nrecs <= 0 ||
		    (args = dt_recmem_alloc(mem, (size_t)act->a_nrecs * sizeof(*args))) == NULL)
			break;
		for (int i = 0; i < act->a_nrecs; i++)
			dt_rec_decode(dtp, &recs[i], d, "arg", &args[i], mem);
		out->dtr_args = args;
		out->dtr_nargs = (unsigned)act->a_nrecs;
		break;
	}
	case DT_A_PRINTA:
		out->dtr_kind = DTRACE_REC_PRINTA;
		out->dtr_str = act->a_fmt;
		act_aggs(dtp, act, out, mem);
		break;
	case DT_A_EXIT:
		dt_rec_decode(dtp, &recs[0], d, name, out, mem);
		out->dtr_kind = DTRACE_REC_EXIT;
		out->dtr_type = "int";
		break;
	case DT_A_SETOPT: {
		dtrace_record_t *val;

		dt_rec_decode(dtp, &recs[0], d, name, out, mem); /* the name, a string */
		out->dtr_kind = DTRACE_REC_OTHER;
		out->dtr_type = "";
		if (act->a_nrecs > 1 && (val = dt_recmem_alloc(mem, sizeof(*val))) != NULL) {
			dt_rec_decode(dtp, &recs[1], d, "arg", val, mem);
			out->dtr_args = val;
			out->dtr_nargs = 1;
		}
		break;
	}
	case DT_A_CLEAR:
	case DT_A_TRUNC:
	case DT_A_NORMALIZE:
	case DT_A_DENORMALIZE:
		act_aggs(dtp, act, out, mem);
		if (act->a_nrecs > 0)
			out->dtr_int = rec_int(&recs[0], d);
		break;
	case DT_A_COMMIT:
	case DT_A_DISCARD:
		out->dtr_int = (int64_t)((uint64_t)rec_int(&recs[0], d) & 0xffff); /* the id */
		break;
	case DT_A_FTRUNCATE: break;
	}
}

/* A callback's return: its value, and the calls stopped on ERROR, ABORT (or another value). */
static int cb_result(dt_drain_t *dr, int rc)
{
	if (rc == DTRACE_CONSUME_THIS || rc == DTRACE_CONSUME_NEXT)
		return rc;
	dr->dr_cbstop = rc == DTRACE_CONSUME_ABORT ? EDT_DIRABORT : EDT_CALLBACK;
	return rc;
}

/* A clause's record d read on cpu: its epid, its clause and its firing as the API passes it. */
static const dt_stmt_t *firing(dtrace_hdl_t *dtp, int cpu, const uint8_t *d, uint32_t *epid,
			       dtrace_probedata_t *pdata)
{
	const dt_run_t *r = dtp->dt_run;
	const dt_stmt_t *st;

	memcpy(epid, d, 4);
	st = r->r_en.en_ecbs[*epid - 1].e_stmt;
	*pdata = (dtrace_probedata_t){ .dtpda_size = sizeof(*pdata),
				       .dtpda_pdesc =
					   &dtp->dt_probes[r->r_en.en_ecbs[*epid - 1].e_probe],
				       .dtpda_cpu = cpu,
				       .dtpda_epid = *epid,
				       .dtpda_nrecs = (unsigned)st->st_nacts };
	return st;
}

/*
 * One record of a clause for dtrace_consume's callbacks: the probe's,
 * then one per action, then the end (a NULL record); the library's
 * actions done in the order of the clause's actions, whatever the
 * callbacks returned.  ops: as print_record.
 */
static void consume_record(dtrace_hdl_t *dtp, int cpu, const uint8_t *d, bool ops)
{
	dt_run_t *r = dtp->dt_run;
	dt_drain_t *dr = &r->r_dr;
	const dtrace_consume_opts_t *o = &dr->dr_cons;
	uint32_t epid;
	const dt_stmt_t *st;
	dtrace_probedata_t pdata;
	int rc = DTRACE_CONSUME_THIS;

	st = firing(dtp, cpu, d, &epid, &pdata);
	if (dr->dr_cbstop == 0 && o->probe != NULL)
		rc = cb_result(dr, o->probe(&pdata, o->arg));
	for (int a = 0; a < st->st_nacts; a++) {
		const dt_act_t *act = &st->st_acts[a];

		if (dr->dr_cbstop == 0 && rc == DTRACE_CONSUME_THIS && o->rec != NULL) {
			dtrace_record_t rec;

			act_record(dtp, st, act, d, &rec, &dr->dr_mem);
			if (dr->dr_mem.rm_failed)
				dr->dr_error = ENOMEM;
			rc = cb_result(dr, o->rec(&pdata, &rec, o->arg));
		}
		lib_action(dtp, NULL, act, st, d, epid, pdata.dtpda_pdesc);
	}
	if (dr->dr_cbstop == 0 && rc == DTRACE_CONSUME_THIS && o->rec != NULL)
		(void)cb_result(dr, o->rec(&pdata, NULL, o->arg));
	dt_recmem_reset(&dr->dr_mem);
	if (ops && dr->dr_spec != NULL)
		spec_ops(dtp, st, d);
}

/* The actions whose records the outputs print (the others: dt_agg_printa, lib_action). */
static bool prints_data(dt_akind_t k)
{
	return k == DT_A_TRACE || k == DT_A_TRACEMEM || k == DT_A_PRINTF || k == DT_A_PRINT;
}

/* One printed action's decoded record, as text. */
static void text_record(dtrace_hdl_t *dtp, FILE *fp, const dtrace_record_t *rec,
			const dt_act_t *act, bool quiet)
{
	switch (rec->dtr_kind) {
	case DTRACE_REC_PRINTF: fwrite(rec->dtr_str, 1, rec->dtr_len, fp); break;
	default:
		if (act->a_kind == DT_A_PRINT)
			dt_print_typed(fp, rec, act->a_type);
		else
			dt_print_rec(dtp, fp, rec, quiet, -33);
		break;
	}
}

/*
 * One record of a clause, printed (d holds its st_size bytes, epid valid);
 * ops: then do its commits and discards (not for a speculative record,
 * whose were done when it was read).  The printing actions' records are
 * decoded as dtrace_consume() passes them (act_record), then written as
 * text or JSON from what they hold.  JSON writes the firing's object
 * first, then does printa() and the library's actions.
 */
static void print_record(dtrace_hdl_t *dtp, int cpu, const uint8_t *d, bool ops)
{
	dt_run_t *r = dtp->dt_run;
	dt_drain_t *dr = &r->r_dr;
	FILE *fp = dr->dr_out != NULL ? dr->dr_out : stdout;
	uint32_t epid;
	const dt_stmt_t *st;
	dtrace_probedata_t pdata;
	dtrace_record_t rec;

	if (dr->dr_consuming) { /* dtrace_consume: to the callbacks */
		consume_record(dtp, cpu, d, ops);
		return;
	}
	st = firing(dtp, cpu, d, &epid, &pdata);
	if (dr->dr_json) {
		if (!dr->dr_quiet || dt_json_has_data(st)) {
			bool first = true;

			dt_json_probe_begin(fp, &pdata);
			for (int a = 0; a < st->st_nacts; a++) {
				const dt_act_t *act = &st->st_acts[a];

				if (!prints_data(act->a_kind))
					continue;
				act_record(dtp, st, act, d, &rec, &dr->dr_mem);
				dt_json_data(fp, &rec,
					     act->a_kind == DT_A_PRINT ? act->a_type : NULL, first);
				first = false;
			}
			dt_json_probe_end(fp);
		}
	} else if (dr->dr_flow) {
		flow_column(dtp, fp, cpu, epid, pdata.dtpda_pdesc);
	} else if (!dr->dr_quiet) {
		const dtrace_probedesc_t *pd = pdata.dtpda_pdesc;
		char name[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 2];

		if (!dr->dr_header_done)
			fprintf(fp, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
		dr->dr_header_done = true;
		snprintf(name, sizeof(name), "%s:%s", pd->dtpd_func, pd->dtpd_name);
		fprintf(fp, "%3d %6u %32s ", cpu, pd->dtpd_id, name);
	}
	for (int a = 0; a < st->st_nacts; a++) {
		const dt_act_t *act = &st->st_acts[a];

		if (prints_data(act->a_kind)) {
			if (dr->dr_json)
				continue;
			act_record(dtp, st, act, d, &rec, &dr->dr_mem);
			text_record(dtp, fp, &rec, act, dr->dr_quiet);
		} else if (act->a_kind == DT_A_PRINTA) {
			if (dt_agg_printa(dtp, fp, act, st->st_recs, d) != 0)
				dr->dr_error = dtrace_errno(dtp);
		} else {
			lib_action(dtp, fp, act, st, d, epid, pdata.dtpda_pdesc);
		}
	}
	if (dr->dr_mem.rm_failed)
		dr->dr_error = ENOMEM;
	dt_recmem_reset(&dr->dr_mem);
	if (!dr->dr_quiet && !dr->dr_json)
		fputc('\n', fp);
	/* as illumos: the commit's own record, then what it commits */
	if (ops && dr->dr_spec != NULL) /* dr_spec: some clause speculates (spec_open) */
		spec_ops(dtp, st, d);
}

/* ---------------------------------------------------------------- speculations */

/*
 * The consumer's half of speculative tracing (the programs' half is in
 * dt_cg.c, the slot states in dt_program.h).  A record whose header has a
 * tag is held with its speculation, up to specsize bytes per CPU (beyond:
 * a speculative drop); a commit() record prints what is held, in the order
 * read, right after itself, and a discard() one frees it.  A record read
 * after its speculation was closed (written on another CPU before the
 * commit, read after it) is printed or dropped as the speculation was.
 * Closed slots become INACTIVE when the consumer cleans, at cleanrate:
 * until then speculation() finds them busy, as illumos's do until its
 * cleaner has run.
 */

static dt_specbuf_t *spec_buf(dt_run_t *r, uint32_t tag)
{
	uint32_t id = tag & 0xffff;

	if (r->r_dr.dr_spec == NULL || id == 0 || id > r->r_ld.ld_nspec)
		return NULL;
	return &r->r_dr.dr_spec[id - 1];
}

/* 0: the generation is not closed, else its DT_SB_* flags. */
static uint32_t spec_closed(const dt_specbuf_t *sb, uint32_t gen)
{
	for (int i = 0; i < DT_SPEC_NCLOSED; i++)
		if ((sb->sb_closed[i] & DT_SB_CLOSED) && (sb->sb_closed[i] & 0xffff) == gen)
			return sb->sb_closed[i];
	return 0;
}

static void spec_drop_held(dt_run_t *r, dt_specbuf_t *sb)
{
	for (dt_specrec_t *sr = sb->sb_head, *next; sr != NULL; sr = next) {
		next = sr->sr_next;
		free(sr);
	}
	sb->sb_head = NULL;
	sb->sb_tail = &sb->sb_head;
	if (sb->sb_bytes != NULL)
		memset(sb->sb_bytes, 0, sizeof(uint64_t) * (size_t)r->r_ld.ld_ncpus);
}

/* commit() (or discard()) of the speculation tag names: print (or drop) what is held. */
static void spec_close(dtrace_hdl_t *dtp, uint32_t tag, bool commit)
{
	dt_run_t *r = dtp->dt_run;
	dt_specbuf_t *sb = spec_buf(r, tag);
	uint32_t gen = tag >> 16;

	if (sb == NULL || spec_closed(sb, gen) != 0)
		return;
	sb->sb_closed[sb->sb_nextclosed] = gen | DT_SB_CLOSED | (commit ? DT_SB_COMMITTED : 0);
	sb->sb_nextclosed = (sb->sb_nextclosed + 1) % DT_SPEC_NCLOSED;
	if (sb->sb_gen == gen) { /* else what is held is a later generation's */
		if (commit)
			for (dt_specrec_t *sr = sb->sb_head; sr != NULL; sr = sr->sr_next)
				print_record(dtp, sr->sr_cpu, sr->sr_data, false);
		spec_drop_held(r, sb);
	}
	sb->sb_clean = true;
	sb->sb_orphan = 0;
}

static void spec_ops(dtrace_hdl_t *dtp, const dt_stmt_t *st, const uint8_t *d)
{
	for (int a = 0; a < st->st_nacts; a++) {
		const dt_act_t *act = &st->st_acts[a];
		uint32_t tag;

		if (act->a_kind != DT_A_COMMIT && act->a_kind != DT_A_DISCARD)
			continue;
		tag = (uint32_t)rec_int(&st->st_recs[act->a_rec], d);
		if (tag != 0)
			spec_close(dtp, tag, act->a_kind == DT_A_COMMIT);
	}
}

/* A speculative record (tag non-zero) of size bytes. */
static void spec_record(dtrace_hdl_t *dtp, int cpu, const dt_stmt_t *st, const uint8_t *d,
			uint32_t tag)
{
	uint32_t size = st->st_size;
	dt_run_t *r = dtp->dt_run;
	dt_specbuf_t *sb = spec_buf(r, tag);
	uint32_t gen = tag >> 16, closed;
	dt_specrec_t *sr;

	/* a commit or discard after speculate() in the clause happened when it fired */
	spec_ops(dtp, st, d);
	if (sb == NULL || cpu < 0 || cpu >= r->r_ld.ld_ncpus)
		return;
	if ((closed = spec_closed(sb, gen)) != 0) {
		if (closed & DT_SB_COMMITTED)
			print_record(dtp, cpu, d, false);
		return;
	}
	if (sb->sb_head != NULL && sb->sb_gen != gen) {
		/* older than what is held: closed long ago, its closing forgotten */
		if (((gen - sb->sb_gen) & 0xffff) >= 0x8000)
			return;
		spec_drop_held(r, sb); /* a generation never closed: cannot happen */
	}
	sb->sb_gen = gen;
	if (sb->sb_bytes[cpu] + size > r->r_dr.dr_specsize) {
		r->r_dr.dr_specdrops++;
		return;
	}
	if ((sr = malloc(sizeof(*sr) + size)) == NULL) {
		r->r_dr.dr_error = ENOMEM;
		return;
	}
	sr->sr_next = NULL;
	sr->sr_cpu = cpu;
	memcpy(sr->sr_data, d, size);
	*sb->sb_tail = sr;
	sb->sb_tail = &sr->sr_next;
	sb->sb_bytes[cpu] += size;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Clean, at cleanrate: each closed slot becomes INACTIVE again, by
 * compare-and-exchange on the mapped value (the programs never write a
 * closed slot; the exchange keeps it so).  Scan, once a second (or at the
 * end, final): a slot the programs left COMMITTING or DISCARDING whose
 * record never came (the principal buffer was full, or the clause faulted
 * after its commit()) is closed as it says once it is seen so at two
 * scans, so that no speculation stays busy.
 */
static void spec_clean(dtrace_hdl_t *dtp, dt_run_t *r, bool final)
{
	dt_drain_t *dr = &r->r_dr;
	uint64_t now = now_ns();
	bool scan = final || now - dr->dr_lastscan >= 1000000000ULL;

	if (dr->dr_spec == NULL || (!final && !scan && now - dr->dr_lastclean < dr->dr_cleanrate))
		return;
	dr->dr_lastclean = now;
	if (scan)
		dr->dr_lastscan = now;
	for (uint32_t i = 0; i < r->r_ld.ld_nspec; i++) {
		dt_specbuf_t *sb = &dr->dr_spec[i];
		uint64_t v, inactive;
		uint32_t st, gen;

		if (!sb->sb_clean && !scan)
			continue;
		v = __atomic_load_n(&dr->dr_slots[i], __ATOMIC_ACQUIRE);
		st = (uint32_t)DT_SPEC_STATE(v);
		gen = (uint32_t)DT_SPEC_GEN(v);
		if (st != DT_SPEC_COMMITTING && st != DT_SPEC_DISCARDING) {
			sb->sb_orphan = 0;
			sb->sb_clean = false;
			continue;
		}
		if (spec_closed(sb, gen) == 0) {
			if (!final && sb->sb_orphan != gen + 1) {
				sb->sb_orphan = scan ? gen + 1 : 0;
				continue;
			}
			spec_close(dtp, DT_SPEC_TAG(gen, i + 1), st == DT_SPEC_COMMITTING);
		}
		inactive = (v & ~(uint64_t)0xff) | DT_SPEC_INACTIVE;
		(void)__atomic_compare_exchange_n(&dr->dr_slots[i], &v, inactive, false,
						  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		sb->sb_clean = false;
	}
}

/* What the drain allocated: the speculations' buffers, -F's held record. */
void dt_consume_free(dt_run_t *r)
{
	dt_recmem_fini(&r->r_dr.dr_mem);
	if (r->r_dr.dr_pf != NULL)
		fclose(r->r_dr.dr_pf);
	free(r->r_dr.dr_pfbuf);
	r->r_dr.dr_pf = NULL;
	r->r_dr.dr_pfbuf = NULL;
	free(r->r_dr.dr_pend);
	r->r_dr.dr_pend = NULL;
	r->r_dr.dr_pending = false;
	if (r->r_dr.dr_spec == NULL)
		return;
	for (uint64_t i = 0; i < r->r_ld.ld_nspec; i++) {
		spec_drop_held(r, &r->r_dr.dr_spec[i]);
		free(r->r_dr.dr_spec[i].sb_bytes);
	}
	free(r->r_dr.dr_spec);
	r->r_dr.dr_spec = NULL;
	if (r->r_dr.dr_slots != NULL)
		munmap(r->r_dr.dr_slots, r->r_dr.dr_slotsmap);
	r->r_dr.dr_slots = NULL;
}

/* Whether a clause of the run speculates, commits or discards. */
static bool uses_spec(const dt_run_t *r)
{
	for (int i = 0; i < r->r_en.en_nstmts; i++) {
		const dt_stmt_t *st = r->r_en.en_stmts[i];

		if (st->st_spec)
			return true;
		for (int a = 0; a < st->st_nacts; a++)
			if (st->st_acts[a].a_kind == DT_A_COMMIT ||
			    st->st_acts[a].a_kind == DT_A_DISCARD)
				return true;
	}
	return false;
}

static int spec_open(dtrace_hdl_t *dtp, dt_run_t *r)
{
	dt_drain_t *dr = &r->r_dr;
	long page = sysconf(_SC_PAGESIZE);

	dr->dr_specsize = dt_option_get(dtp, "specsize", 32 << 10);  /* illumos's default */
	dr->dr_cleanrate = dt_option_get(dtp, "cleanrate", 9900990); /* 101hz, as illumos */
	if (dr->dr_cleanrate < 1000000)
		dr->dr_cleanrate = 1000000;
	if (r->r_ld.ld_nspec == 0 || !uses_spec(r))
		return 0;
	dr->dr_slotsmap =
	    ((size_t)r->r_ld.ld_nspec * 8 + (size_t)page - 1) / (size_t)page * (size_t)page;
	dr->dr_slots = mmap(NULL, dr->dr_slotsmap, PROT_READ | PROT_WRITE, MAP_SHARED,
			    r->r_ld.ld_fd[DT_MAP_SPEC], 0);
	if (dr->dr_slots == MAP_FAILED) {
		dr->dr_slots = NULL;
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot map the speculations: %s",
				     strerror(errno));
	}
	if ((dr->dr_spec = calloc(r->r_ld.ld_nspec, sizeof(*dr->dr_spec))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint64_t i = 0; i < r->r_ld.ld_nspec; i++) {
		dt_specbuf_t *sb = &dr->dr_spec[i];

		sb->sb_tail = &sb->sb_head;
		if ((sb->sb_bytes = calloc((size_t)r->r_ld.ld_ncpus, sizeof(uint64_t))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	dr->dr_lastclean = dr->dr_lastscan = now_ns();
	return 0;
}

/*
 * -F: print the held return record; next is the EPID of the record after
 * it on cpu (0: none, or an error record).  illumos dt_flowindent reads the
 * next record of the buffer: from another clause of the same probe, the
 * return does not unindent.
 */
static void flow_flush(dtrace_hdl_t *dtp, int cpu, uint32_t next)
{
	dt_run_t *r = dtp->dt_run;
	dt_drain_t *dr = &r->r_dr;
	const uint8_t *d = dr->dr_pend;
	uint32_t epid;

	if (!dr->dr_pending)
		return;
	dr->dr_pending = false;
	memcpy(&epid, d, 4);
	dr->dr_pend_same = next != 0 && next != epid && cpu == dr->dr_pend_cpu &&
			   next <= r->r_en.en_necbs &&
			   r->r_en.en_ecbs[next - 1].e_probe == r->r_en.en_ecbs[epid - 1].e_probe;
	print_record(dtp, dr->dr_pend_cpu, d, true);
	dr->dr_pend_same = false;
}

/*
 * -F: must a return probe's record wait for the next (its probe has other
 * clauses)?  Worked out once per ECB, when its first record comes (-F may
 * be set by setopt() while tracing).
 */
static bool flow_hold(dtrace_hdl_t *dtp, uint32_t epid)
{
	dt_run_t *r = dtp->dt_run;
	dt_drain_t *dr = &r->r_dr;
	size_t probe = r->r_en.en_ecbs[epid - 1].e_probe;
	bool hold = false;

	dt_ecb_t *ecb = &r->r_en.en_ecbs[epid - 1];

	if (!dr->dr_flow || dr->dr_json || dr->dr_consuming)
		return false;
	if (ecb->e_flowhold != 0)
		return ecb->e_flowhold == 2;
	if (flow_name(dtp->dt_probes[probe].dtpd_name, "return"))
		for (uint32_t e = 0; e < r->r_en.en_necbs && !hold; e++)
			hold = e != epid - 1 && r->r_en.en_ecbs[e].e_probe == probe;
	ecb->e_flowhold = hold ? 2 : 1;
	return hold;
}

/* -F: hold the record (size bytes) in the pending buffer, grown as needed. */
static bool flow_keep(dt_drain_t *dr, int cpu, const uint8_t *d, uint32_t size)
{
	if (size > dr->dr_pendcap) {
		uint8_t *p = realloc(dr->dr_pend, size);

		if (p == NULL)
			return false;
		dr->dr_pend = p;
		dr->dr_pendcap = size;
	}
	memcpy(dr->dr_pend, d, size);
	dr->dr_pend_cpu = cpu;
	dr->dr_pending = true;
	return true;
}

static void on_sample(void *ctx, int cpu, void *data, uint32_t size)
{
	dtrace_hdl_t *dtp = ctx;
	dt_run_t *r = dtp->dt_run;
	const uint8_t *d = data;
	const dt_stmt_t *st;
	uint32_t epid, tag;

	if (size < 8)
		return;
	memcpy(&epid, d, 4);
	if (epid == DT_EPID_HOOK) { /* acknowledged after this pass: dt_load_ack */
		if (size >= 16 && dt_grow(&r->r_dr.dr_acks, &r->r_dr.dr_ackcap, r->r_dr.dr_nacks,
					  sizeof(uint64_t), 8) == 0)
			memcpy(&r->r_dr.dr_acks[r->r_dr.dr_nacks++], d + 8, 8);
		return;
	}
	flow_flush(dtp, cpu, epid);
	if (epid == 0) {
		dt_errrec_t er;

		if (size >= sizeof(er)) {
			memcpy(&er, d, sizeof(er));
			error_record(dtp, &er);
		}
		return;
	}
	/* an EPID freed with its probe: nothing of it is left in the buffers */
	if (epid > r->r_en.en_necbs || r->r_en.en_ecbs[epid - 1].e_probe == DT_ECB_FREE)
		return;
	st = r->r_en.en_ecbs[epid - 1].e_stmt;
	if (size < st->st_size)
		return;
	memcpy(&tag, d + 4, 4);
	if (tag != 0) {
		spec_record(dtp, cpu, st, d, tag);
	} else if (!flow_hold(dtp, epid) || !flow_keep(&r->r_dr, cpu, d, st->st_size)) {
		print_record(dtp, cpu, d, true);
	}
}

/*
 * Report what was lost since the last report, as dtrace(1) words it
 * (illumos dt_handle_cpudrop and dt_handle_status).  The programs count
 * drops per CPU and kind in dt_drops: records the principal buffer had no
 * room for (a perf LOST record is written only when a later record fits,
 * so the last drops of a run would go unreported), entries a full
 * aggregation refused, dynamic variables that found no space, and
 * speculation() calls that failed; the last three are reported for all
 * CPUs together, as dtrace(1) does, with the speculative drops (records
 * beyond specsize, counted here) before the failed speculations.
 */
/*
 * User stacks walked by frame pointers alone, for want of tables (a
 * process the walker met before the consumer loaded its tables): such a
 * stack may lack frames, which the user is told, as of a drop.
 */
static void report_fponly(dtrace_hdl_t *dtp, dt_run_t *r)
{
	uint64_t n = dt_load_unwind_fponly(dtp, r);

	if (n > 0)
		report_drop(dtp, "fponly", -1, n,
			    "%llu user stack%s unwound by frame pointers only (unwind tables not "
			    "loaded yet)",
			    (unsigned long long)n, n > 1 ? "s were" : " was");
}

static void report_drops(dtrace_hdl_t *dtp, dt_run_t *r)
{
	static const struct {
		const char *what, *suffix, *json;
		bool per_cpu;
	} kinds[DT_DROP_NKINDS] = {
		[DT_DROP_PRINCIPAL] = { "drop", "", "principal", true },
		[DT_DROP_AGG] = { "aggregation drop", "", "aggregation", true },
		[DT_DROP_DYN] = { "dynamic variable drop", "", "dynamic", false },
		[DT_DROP_SPECBUSY] = { "failed speculation", " (available buffer(s) still busy)",
				       "speculation_busy", false },
		[DT_DROP_SPECUNAVAIL] = { "failed speculation",
					  " (no speculative buffer available)",
					  "speculation_unavailable", false },
		/* the kernel skipped a tick's program (dt_prov_profile.c, entry) */
		[DT_DROP_TICK] = { "lost tick firing", "", "tick", true },
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

		if (k == DT_DROP_SPECBUSY && r->r_dr.dr_specdrops > r->r_dr.dr_specdrops_seen) {
			total = r->r_dr.dr_specdrops - r->r_dr.dr_specdrops_seen;
			r->r_dr.dr_specdrops_seen = r->r_dr.dr_specdrops;
			if (r->r_dr.dr_json && !r->r_dr.dr_consuming)
				dt_json_drop(fp, "speculative", -1, total);
			report_drop(dtp, "speculative", -1, total, "%llu speculative drop%s", total,
				    total > 1 ? "s" : "");
			total = 0;
		}
		for (int cpu = 0; cpu < r->r_ld.ld_ncpus; cpu++) {
			size_t i = (size_t)cpu * DT_DROP_NKINDS + (size_t)k;
			unsigned long long n = now[i] - seen[i];

			if (now[i] <= seen[i])
				continue;
			seen[i] = now[i];
			total += n;
			if (!kinds[k].per_cpu)
				continue;
			if (r->r_dr.dr_json && !r->r_dr.dr_consuming)
				dt_json_drop(fp, kinds[k].json, cpu, n);
			report_drop(dtp, kinds[k].json, cpu, n, "%llu %s%s on CPU %d", n,
				    kinds[k].what, n > 1 ? "s" : "", cpu);
		}
		if (kinds[k].per_cpu || total == 0)
			continue;
		if (r->r_dr.dr_json && !r->r_dr.dr_consuming)
			dt_json_drop(fp, kinds[k].json, -1, total);
		report_drop(dtp, kinds[k].json, -1, total, "%llu %s%s%s", total, kinds[k].what,
			    total > 1 ? "s" : "", kinds[k].suffix);
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
		    (dt_aggview_t){ r->r_en.en_aggs[i], r->r_ld.ld_aggfds[i], 1, false, NULL, 0 };
	dr->dr_naggs = r->r_en.en_naggs;
	if (spec_open(dtp, r) != 0)
		return -1;
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
	/*
	 * Stopped (exit(), or the consumer stopped it): END has fired, in
	 * dtrace_stop, so its records are in the buffers already and the next
	 * dtrace_work drains them and is done.  Waiting the switchrate for them
	 * made exit() in any probe but BEGIN take a second to end dtrace.
	 */
	if (r->r_dr.dr_stopped)
		return;
	rate = dt_option_get(dtp, "switchrate", 1000000000ULL);
	/* closed slots wait for the consumer to be free again: cleanrate then */
	for (uint64_t i = 0; r->r_dr.dr_spec != NULL && i < r->r_ld.ld_nspec; i++)
		if (r->r_dr.dr_spec[i].sb_clean && r->r_dr.dr_cleanrate < rate) {
			rate = r->r_dr.dr_cleanrate;
			break;
		}
	/* a target that exits is seen at once; a -c child is polled */
	if (r->r_tg.tg_child && !r->r_tg.tg_exited && rate > 50000000ULL)
		rate = 50000000ULL;
	/*
	 * the user stack walker's requests for tables are served within 20
	 * ms: until then a new process's stacks are walked by frame pointers
	 */
	if (r->r_ld.ld_unw != NULL && rate > 20000000ULL)
		rate = 20000000ULL;
	if (r->r_tg.tg_pid > 0 && !r->r_tg.tg_child && r->r_tg.tg_pidfd >= 0)
		p[n++] = (struct pollfd){ .fd = r->r_tg.tg_pidfd, .events = POLLIN };
	p[n++] = (struct pollfd){ .fd = ks_perfbuf_fd(r->r_dr.dr_pb), .events = POLLIN };
	(void)poll(p, (nfds_t)n, (int)(rate / 1000000ULL));
}

/*
 * A failed write ends the work with its errno, as illumos dt_printf()
 * returns dt_set_errno(dtp, errno); fp keeps its error flag for the caller
 * to tell (dtrace(1): "failed to write to ...").  The flush retries what a
 * failed write left buffered, so errno is the write's.  An interrupted
 * write is no failure, as in illumos oprintf().
 */
static int flush_out(dtrace_hdl_t *dtp, FILE *fp)
{
	errno = 0;
	if (fp == NULL || (fflush(fp) != EOF && !ferror(fp)))
		return 0;
	if (errno == EINTR) {
		clearerr(fp);
		return 0;
	}
	return dt_set_errno(dtp, errno != 0 ? errno : EIO);
}

/* dtrace_work and dtrace_consume: the drain, the records printed to fp or passed to callbacks. */
static dtrace_workstatus_t work(dtrace_hdl_t *dtp, dt_run_t *r, FILE *fp)
{
	int err;

	r->r_dr.dr_out = fp;
	if (dt_load_rescan(dtp, r) != 0 || dt_load_unwind(dtp, r) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	if ((err = ks_perfbuf_consume(r->r_dr.dr_pb)) < 0) {
		dt_set_errmsg(dtp, EDT_ENABLING, "cannot read the output buffers: %s",
			      strerror(-err));
		return DTRACE_WORKSTATUS_ERROR;
	}
	flow_flush(dtp, -1, 0);
	if (r->r_dr.dr_nacks > 0 && dt_load_ack(dtp, r) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	spec_clean(dtp, r, false);
	report_drops(dtp, r);
	if (flush_out(dtp, fp) != 0)
		return DTRACE_WORKSTATUS_ERROR;
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
		flow_flush(dtp, -1, 0);
		spec_clean(dtp, r, true); /* commits whose records were lost: now */
		report_drops(dtp, r);
		report_fponly(dtp, r);
		if (flush_out(dtp, fp) != 0)
			return DTRACE_WORKSTATUS_ERROR;
		return DTRACE_WORKSTATUS_DONE;
	}
	return DTRACE_WORKSTATUS_OKAY;
}

dtrace_workstatus_t dtrace_work(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_run_t *r;

	if (dtp == NULL)
		return DTRACE_WORKSTATUS_ERROR;
	if ((r = dtp->dt_run) == NULL || r->r_dr.dr_pb == NULL) {
		dt_set_errno(dtp, EDT_NOTRACE);
		return DTRACE_WORKSTATUS_ERROR;
	}
	if (r->r_dr.dr_consuming) {
		dt_set_errmsg(dtp, EDT_BADARG,
			      "dtrace_work: called from a dtrace_consume callback");
		return DTRACE_WORKSTATUS_ERROR;
	}
	return work(dtp, r, fp);
}

/*
 * An options structure the caller passes (libbpf's OPTS_VALID): sz at
 * least a size_t, and the bytes past ours (a newer caller's fields) zero.
 */
int dt_opts_valid(dtrace_hdl_t *dtp, const void *opts, size_t ours, const char *func)
{
	size_t sz;

	if (opts == NULL)
		return dt_set_errmsg(dtp, EDT_BADARG, "%s: the options are NULL", func);
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(size_t))
		return dt_set_errmsg(dtp, EDT_BADARG,
				     "%s: the options' sz is %zu (set it to sizeof the structure)",
				     func, sz);
	for (size_t i = ours; i < sz; i++)
		if (((const uint8_t *)opts)[i] != 0)
			return dt_set_errmsg(dtp, EDT_BADARG,
					     "%s: the options set fields this library does not "
					     "know (byte %zu of %zu)",
					     func, i, sz);
	return 0;
}

dtrace_workstatus_t dtrace_consume(dtrace_hdl_t *dtp, const dtrace_consume_opts_t *o)
{
	dt_run_t *r;
	dt_drain_t *dr;
	dtrace_workstatus_t st;

	if (dtp == NULL)
		return DTRACE_WORKSTATUS_ERROR;
	if (dt_opts_valid(dtp, o, sizeof(*o), "dtrace_consume") != 0)
		return DTRACE_WORKSTATUS_ERROR;
	if ((r = dtp->dt_run) == NULL || r->r_dr.dr_pb == NULL) {
		dt_set_errno(dtp, EDT_NOTRACE);
		return DTRACE_WORKSTATUS_ERROR;
	}
	dr = &r->r_dr;
	if (dr->dr_consuming) {
		dt_set_errmsg(dtp, EDT_BADARG,
			      "dtrace_consume: called from a dtrace_consume callback");
		return DTRACE_WORKSTATUS_ERROR;
	}
	/* the caller's fields; those past its sz are 0 */
	memset(&dr->dr_cons, 0, sizeof(dr->dr_cons));
	memcpy(&dr->dr_cons, o, o->sz < sizeof(*o) ? o->sz : sizeof(*o));
	dr->dr_consuming = true;
	dr->dr_cbstop = 0;
	st = work(dtp, r, NULL);
	dr->dr_consuming = false;
	dt_recmem_reset(&dr->dr_mem);
	if (dr->dr_cbstop != 0 && st != DTRACE_WORKSTATUS_ERROR) {
		dt_set_errno(dtp, dr->dr_cbstop);
		st = DTRACE_WORKSTATUS_ERROR;
	}
	dr->dr_cbstop = 0;
	return st;
}
