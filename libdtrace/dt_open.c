/*
 * dt_open.c -- handles, options, errors and the compile entry points.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_program.h"
#include "ks.h"

/* ---------------------------------------------------------------- arena */

typedef struct dt_chunk {
	struct dt_chunk *dc_next;
	size_t dc_size, dc_used;
	max_align_t dc_data[]; /* dc_size bytes */
} dt_chunk_t;

#define CHUNK_SIZE (64 * 1024)

int dt_grow(void *arrp, size_t *capp, size_t n, size_t size, size_t first)
{
	void **arr = arrp;
	size_t nc = *capp ? 2 * *capp : first;
	void *na;

	if (n < *capp)
		return 0;
	if (nc <= n || nc > SIZE_MAX / size || (na = realloc(*arr, nc * size)) == NULL)
		return -1;
	*arr = na;
	*capp = nc;
	return 0;
}

void *dt_arena_alloc(dt_arena_t *a, size_t n)
{
	dt_chunk_t *c = a->da_head;
	size_t al = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	void *p;

	if (n == 0)
		al = sizeof(max_align_t);
	if (al < n) /* overflow */
		return NULL;
	if (c == NULL || c->dc_size - c->dc_used < al) {
		size_t min = a->da_chunk ? a->da_chunk : CHUNK_SIZE, sz = al > min ? al : min;

		c = malloc(sizeof(*c) + sz);
		if (c == NULL)
			return NULL;
		c->dc_size = sz;
		c->dc_used = 0;
		c->dc_next = a->da_head;
		a->da_head = c;
	}
	p = (char *)c->dc_data + c->dc_used;
	c->dc_used += al;
	memset(p, 0, n);
	return p;
}

char *dt_arena_strndup(dt_arena_t *a, const char *s, size_t n)
{
	char *p = dt_arena_alloc(a, n + 1);

	if (p != NULL) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

void dt_arena_free(dt_arena_t *a)
{
	dt_chunk_t *c = a->da_head, *n;

	for (; c != NULL; c = n) {
		n = c->dc_next;
		free(c);
	}
	a->da_head = NULL;
}

/* ---------------------------------------------------------------- errors */

static const char *const errlist[] = {
	[EDT_VERSION - EDT_BASE] = "Client requested version newer than library",
	[EDT_COMPILER - EDT_BASE] = "Error in D program compilation",
	[EDT_NOMEM - EDT_BASE] = "Memory allocation failure",
	[EDT_BADOPTNAME - EDT_BASE] = "Invalid option name",
	[EDT_BADOPTVAL - EDT_BASE] = "Invalid value for specified option",
	[EDT_CPP - EDT_BASE] = "Failed to preprocess input program",
	[EDT_NOPROV - EDT_BASE] = "No providers are declared",
	[EDT_ELF - EDT_BASE] = "Invalid or unreadable ELF file",
	[EDT_OBJIO - EDT_BASE] = "Cannot write output file",
	[EDT_BADARG - EDT_BASE] = "Invalid argument",
	[EDT_NOPROBE - EDT_BASE] = "No probe matches description",
	[EDT_BADPSPEC - EDT_BASE] = "Invalid probe specifier",
	[EDT_NOPRIV - EDT_BASE] = "Tracing needs root, or CAP_BPF and CAP_PERFMON",
	[EDT_ENABLING - EDT_BASE] = "The kernel refused to enable a probe",
	[EDT_NOTRACE - EDT_BASE] = "Tracing is not active",
	[EDT_PROC - EDT_BASE] = "Cannot create or grab the process",
	[EDT_DESTRUCTIVE - EDT_BASE] = "Destructive actions not allowed",
	[EDT_ACTIVE - EDT_BASE] = "Operation illegal when tracing is active",
	[EDT_WRITEUSER - EDT_BASE] = ("copyout( ) and copyoutstr( ) need bpf_probe_write_user, "
				      "which this kernel refuses (lockdown, or no CAP_SYS_ADMIN)"),
	[EDT_PROVUNAVAIL - EDT_BASE] = "The provider cannot be used on this system",
	[EDT_UNSTABLE - EDT_BASE] = "Description matched an unstable set of probes",
	[EDT_DIRABORT - EDT_BASE] = "Abort directive from consumer",
	[EDT_CALLBACK - EDT_BASE] = "A consumer callback returned an error",
};

int dt_set_errno(dtrace_hdl_t *dtp, int err)
{
	dtp->dt_errno = err;
	dtp->dt_errmsg[0] = '\0';
	return -1;
}

int dt_set_errmsg(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
{
	va_list ap;

	dtp->dt_errno = err;
	va_start(ap, fmt);
	vsnprintf(dtp->dt_errmsg, sizeof(dtp->dt_errmsg), fmt, ap);
	va_end(ap);
	return -1;
}

int dtrace_errno(dtrace_hdl_t *dtp)
{
	return dtp != NULL ? dtp->dt_errno : EDT_BADARG;
}

const char *dtrace_errmsg(dtrace_hdl_t *dtp, int err)
{
	if (dtp != NULL && err == dtp->dt_errno && dtp->dt_errmsg[0] != '\0')
		return dtp->dt_errmsg;
	if (err >= EDT_BASE && err < EDT_MAX)
		return errlist[err - EDT_BASE];
	if (err > 0 && err < EDT_BASE)
		return strerror(err);
	return "Unknown error";
}

const dtrace_diag_t *dtrace_lastdiag(dtrace_hdl_t *dtp)
{
	if (dtp == NULL || dtp->dt_diag.dtdg_line == 0)
		return NULL;
	return &dtp->dt_diag;
}

/* ---------------------------------------------------------------- handles */

dtrace_hdl_t *dtrace_open(int version, int flags, int *errp)
{
	dtrace_hdl_t *dtp;

	if (version > DTRACE_VERSION || version < 1 || flags != 0) {
		if (errp != NULL)
			*errp = version > DTRACE_VERSION ? EDT_VERSION : EDT_BADARG;
		return NULL;
	}
	dtp = calloc(1, sizeof(*dtp));
	if (dtp == NULL || (dtp->dt_cpppath = strdup("cpp")) == NULL) {
		free(dtp);
		if (errp != NULL)
			*errp = EDT_NOMEM;
		return NULL;
	}
	return dtp;
}

void dtrace_close(dtrace_hdl_t *dtp)
{
	if (dtp == NULL)
		return;
	while (dtp->dt_progs != NULL)
		dtrace_program_destroy(dtp, dtp->dt_progs);
	for (int i = 0; i < dtp->dt_cppargc; i++)
		free(dtp->dt_cppargv[i]);
	free(dtp->dt_cppargv);
	free(dtp->dt_cpppath);
	dt_run_free(dtp);
	while (dtp->dt_retired != NULL) {
		dtrace_prog_t *pgp = dtp->dt_retired;

		dtp->dt_retired = pgp->dp_next;
		dt_stmts_free(pgp);
		dt_arena_free(&pgp->dp_arena);
		free(pgp);
	}
	dt_pstate_free(dtp);
	dt_lib_free(dtp);
	ks_btf_close(dtp->dt_btf);
	dt_usym_free(dtp);
	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		dt_pblock_put(dtp->dt_pinfo[i].pi_block);
	free(dtp->dt_probes);
	free(dtp->dt_pinfo);
	free(dtp->dt_usdt_pids);
	dt_arena_free(&dtp->dt_parena);
	free(dtp);
}

static int add_cpparg(dtrace_hdl_t *dtp, const char *flag, const char *val)
{
	char **nv = realloc(dtp->dt_cppargv, sizeof(char *) * (size_t)(dtp->dt_cppargc + 1));
	char *arg;

	if (nv == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_cppargv = nv;
	arg = malloc(strlen(flag) + strlen(val) + 1);
	if (arg == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	strcpy(arg, flag);
	strcat(arg, val);
	dtp->dt_cppargv[dtp->dt_cppargc++] = arg;
	return 0;
}

int dtrace_setopt(dtrace_hdl_t *dtp, const char *opt, const char *val)
{
	if (dtp == NULL)
		return -1;
	if (opt == NULL)
		return dt_set_errno(dtp, EDT_BADOPTNAME);
	if (strcmp(opt, "errtags") == 0) {
		dtp->dt_errtags = true;
		return 0;
	}
	if (strcmp(opt, "libdir") == 0)
		return dt_lib_adddir(dtp, val);
	if (strcmp(opt, "incdir") == 0 || strcmp(opt, "define") == 0 || strcmp(opt, "undef") == 0 ||
	    strcmp(opt, "cpppath") == 0) {
		if (val == NULL || *val == '\0')
			return dt_set_errmsg(dtp, EDT_BADOPTVAL, "option %s requires a value", opt);
		if (strcmp(opt, "cpppath") == 0) {
			char *p = strdup(val);

			if (p == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			free(dtp->dt_cpppath);
			dtp->dt_cpppath = p;
			return 0;
		}
		return add_cpparg(dtp, opt[0] == 'i' ? "-I" : opt[0] == 'd' ? "-D" : "-U", val);
	}
	return dt_option_set(dtp, opt, val);
}

/* ---------------------------------------------------------------- diagnostics */

void *dt_palloc(dt_pcb_t *pcb, size_t n)
{
	void *p = dt_arena_alloc(pcb->pcb_arena, n);

	if (p == NULL)
		dt_cnomem(pcb);
	return p;
}

_Noreturn void dt_cnomem(dt_pcb_t *pcb)
{
	longjmp(pcb->pcb_jmp, EDT_NOMEM);
}

_Noreturn void dt_cerror(dt_pcb_t *pcb, const dt_loc_t *loc, const char *tag, const char *fmt, ...)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;
	dtrace_diag_t *dg = &dtp->dt_diag;
	const dt_lib_t *lib = dt_lib_of(dtp, loc->file);
	const char *buf = lib != NULL ? lib->dl_text : pcb->pcb_buf;
	size_t len = lib != NULL ? lib->dl_len : pcb->pcb_len;
	size_t s = loc->off, e;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dtp->dt_diagmsg, sizeof(dtp->dt_diagmsg), fmt, ap);
	va_end(ap);
	snprintf(dtp->dt_diagtag, sizeof(dtp->dt_diagtag), "%s", tag);
	snprintf(dtp->dt_diagfile, sizeof(dtp->dt_diagfile), "%s",
		 loc->file != NULL ? loc->file : "<stdin>");
	/* the source line holding the error, for a caret under it */
	if (s > len)
		s = len;
	while (s > 0 && buf[s - 1] != '\n')
		s--;
	/* up to a NUL past the error too: /dev/zero's "line" is all NULs */
	for (e = s; e < len && buf[e] != '\n' && (e <= loc->off || buf[e] != '\0'); e++)
		;
	if (e - s >= sizeof(dtp->dt_diagsrc))
		e = s + sizeof(dtp->dt_diagsrc) - 1;
	memcpy(dtp->dt_diagsrc, buf + s, e - s);
	dtp->dt_diagsrc[e - s] = '\0';
	for (size_t i = 0; i < e - s; i++) /* NULs and controls would cut or garble it */
		if ((unsigned char)dtp->dt_diagsrc[i] < ' ' && dtp->dt_diagsrc[i] != '\t')
			dtp->dt_diagsrc[i] = ' ';
	dg->dtdg_file = dtp->dt_diagfile;
	dg->dtdg_line = loc->line;
	dg->dtdg_column = loc->col;
	dg->dtdg_tag = dtp->dt_diagtag;
	dg->dtdg_message = dtp->dt_diagmsg;
	dg->dtdg_source = dtp->dt_diagsrc;
	/* an empty tag: a message DTrace gives without one (dt_printf_create's yywarn) */
	/* a library's error names its file, as illumos' for /usr/lib/dtrace */
	dt_set_errmsg(dtp, EDT_COMPILER, "%s%s%s%s%s%sline %u: %s",
		      dtp->dt_errtags && *tag ? "[" : "", dtp->dt_errtags ? tag : "",
		      dtp->dt_errtags && *tag ? "] " : "", lib != NULL ? "\"" : "",
		      lib != NULL ? lib->dl_path : "", lib != NULL ? "\", " : "", loc->line,
		      dtp->dt_diagmsg);
	longjmp(pcb->pcb_jmp, EDT_COMPILER);
}

/* ---------------------------------------------------------------- compiling */

void dtrace_program_destroy(dtrace_hdl_t *dtp, dtrace_prog_t *pgp)
{
	if (dtp == NULL || pgp == NULL)
		return;
	for (dtrace_prog_t **pp = &dtp->dt_progs; *pp != NULL; pp = &(*pp)->dp_next) {
		if (*pp == pgp) {
			*pp = pgp->dp_next;
			break;
		}
	}
	if (dt_run_uses(dtp, pgp)) { /* the run reads its clauses: they go with the handle */
		pgp->dp_next = dtp->dt_retired;
		dtp->dt_retired = pgp;
		return;
	}
	dt_stmts_free(pgp);
	dt_arena_free(&pgp->dp_arena);
	free(pgp);
}

/*
 * A NUL in a program for cpp: cpp would drop it ("null character(s)
 * ignored") and what reading left out after it (dtrace_program_fcompile
 * stops there) would go unseen, so it gets the lexer's error, at its place.
 * (illumos' lex input() returns the NUL as 0, the end of input: what
 * follows is silently ignored.)
 */
static void *nul_error(dtrace_hdl_t *dtp, const char *src, size_t len, const char *fname,
		       const char *nul)
{
	dt_loc_t loc = { fname != NULL ? fname : "<stdin>", 1, 1, (size_t)(nul - src) };
	dt_pcb_t pcb;

	for (const char *c = src; c < nul; c++) {
		loc.col = *c == '\n' ? 1 : loc.col + 1;
		loc.line += *c == '\n';
	}
	memset(&pcb, 0, sizeof(pcb));
	pcb.pcb_hdl = dtp;
	pcb.pcb_buf = src;
	pcb.pcb_len = len;
	if (setjmp(pcb.pcb_jmp) == 0)
		dt_cerror(&pcb, &loc, "D_SYNTAX", "invalid character \\0 in program");
	return NULL;
}

static dtrace_prog_t *compile(dtrace_hdl_t *dtp, const char *src, size_t len, const char *fname,
			      bool fromfile, unsigned cflags, int argc, char *const argv[])
{
	dtrace_prog_t *pgp;
	char *volatile cppout = NULL; /* freed after a longjmp too */
	dt_pcb_t pcb;
	int err;

	memset(&dtp->dt_diag, 0, sizeof(dtp->dt_diag));
	if ((cflags & ~(unsigned)(DTRACE_C_CPP | DTRACE_C_ZDEFS | DTRACE_C_DIFV | DT_C_FRONTEND |
				  DT_C_LIBTRY)) != 0 ||
	    (argc > 0 && !argv)) {
		dt_set_errmsg(dtp, EDT_BADARG, "invalid compile flags or arguments");
		return NULL;
	}
	if (cflags & DTRACE_C_CPP) {
		const char *nul = memchr(src, '\0', len);

		if (nul != NULL)
			return nul_error(dtp, src, len, fname, nul);
		cppout = dt_cpp_run(dtp, src, len, fname, &len);
		if (cppout == NULL)
			return NULL;
		src = cppout;
	}
	if (!(cflags & DT_C_LIBTRY) && dt_lib_load(dtp, src, len) != 0) {
		free(cppout);
		return NULL;
	}
	pgp = calloc(1, sizeof(*pgp));
	if (pgp == NULL) {
		free(cppout);
		dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	memset(&pcb, 0, sizeof(pcb));
	pcb.pcb_hdl = dtp;
	pcb.pcb_prog = pgp;
	pcb.pcb_arena = &pgp->dp_arena;
	pcb.pcb_buf = src;
	pcb.pcb_len = len;
	pcb.pcb_argc = argc;
	pcb.pcb_argv = argv;
	pcb.pcb_fromfile = fromfile;
	if ((err = setjmp(pcb.pcb_jmp)) != 0) {
		if (err == EDT_NOMEM)
			dt_set_errno(dtp, EDT_NOMEM);
		if (dtp->dt_pstate != NULL) /* what code generation had added for it */
			dt_pstate_undo(dtp->dt_pstate);
		dt_stmts_free(pgp);
		dt_arena_free(&pgp->dp_arena);
		free(pgp);
		free(cppout);
		return NULL;
	}
	pcb.pcb_file = dt_arena_strndup(pcb.pcb_arena, fname ? fname : "<stdin>",
					strlen(fname ? fname : "<stdin>"));
	/* procfs.d's psinfo_t and curpsinfo, when a library defines them, else the built-ins */
	pcb.pcb_nops = dtp->dt_lib_procfs || (cflags & DT_C_LIBTRY);
	pcb.pcb_types = dt_typetab_create(pcb.pcb_arena, !pcb.pcb_nops);
	if (pcb.pcb_file == NULL || pcb.pcb_types == NULL)
		dt_cnomem(&pcb);
	dt_typetab_kernel(pcb.pcb_types, dtp);
	dt_parse_program(&pcb);
	if (!(cflags & DT_C_FRONTEND))
		dt_cg_program(&pcb); /* compiling is generating: -e finds what cannot run */
	if (dtp->dt_pstate != NULL)
		dt_pstate_end(dtp->dt_pstate);
	free(cppout);
	if ((cflags & DTRACE_C_DIFV) && dt_program_dis(dtp, pgp, stderr) != 0) {
		dtrace_program_destroy(dtp, pgp);
		return NULL;
	}
	pgp->dp_next = dtp->dt_progs;
	dtp->dt_progs = pgp;
	dt_set_errno(dtp, 0);
	return pgp;
}

dtrace_prog_t *dtrace_program_strcompile(dtrace_hdl_t *dtp, const char *s, const char *fname,
					 unsigned cflags, int argc, char *const argv[])
{
	if (dtp == NULL)
		return NULL;
	if (s == NULL) {
		dt_set_errno(dtp, EDT_BADARG);
		return NULL;
	}
	return compile(dtp, s, strlen(s), fname, false, cflags, argc, argv);
}

dtrace_prog_t *dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp, const char *fname,
				       unsigned cflags, int argc, char *const argv[])
{
	size_t cap = 8192, len = 0, n;
	dtrace_prog_t *pgp;
	char *buf;

	if (dtp == NULL)
		return NULL;
	if (fp == NULL) {
		dt_set_errno(dtp, EDT_BADARG);
		return NULL;
	}
	if ((buf = malloc(cap)) == NULL) {
		dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	/*
	 * Up to the first NUL, which the lexer refuses at its place (a binary
	 * file, /dev/zero), and at most DT_SRC_MAX bytes (a FIFO, an endless
	 * generator): reading never goes on without bound.
	 */
	while ((n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		bool nul = memchr(buf + len, '\0', n) != NULL;

		len += n;
		if (nul)
			break;
		if (len > DT_SRC_MAX) {
			free(buf);
			dt_set_errmsg(dtp, EFBIG, "cannot read %s: a program is at most %u MB",
				      fname ? fname : "<stdin>", DT_SRC_MAX >> 20);
			return NULL;
		}
		if (cap - len - 1 == 0) {
			char *nb = cap > (SIZE_MAX / 2) ? NULL : realloc(buf, cap * 2);

			if (nb == NULL) {
				free(buf);
				dt_set_errno(dtp, EDT_NOMEM);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (ferror(fp)) {
		int err = errno;

		free(buf);
		dt_set_errmsg(dtp, err ? err : EIO, "cannot read %s: %s", fname ? fname : "<stdin>",
			      strerror(err ? err : EIO));
		return NULL;
	}
	buf[len] = '\0';
	pgp = compile(dtp, buf, len, fname, true, cflags, argc, argv);
	free(buf);
	return pgp;
}
