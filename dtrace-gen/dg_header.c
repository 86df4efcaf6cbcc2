/*
 * dg_header.c -- `dtrace -h`: a C/C++ header with a probe macro, an
 * is-enabled macro and a semaphore for every declared probe.
 *
 * Each probe becomes an always-inline function whose parameters have the
 * declared native types, so arguments are converted and checked as a
 * function call would, and whose body is one probe site.  Knowing the types
 * here, the argument specification (size and sign) is written out as text
 * instead of being worked out by the C compiler.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dg_impl.h"

/* The size-and-sign part of an argument spec: "-4", "8", ... */
static int arg_spec_size(const dt_type_t *t)
{
	const dt_type_t *r = dt_type_resolve(t);

	switch (r->dtt_kind) {
	case DT_TK_INT: return (r->dtt_flags & DT_TF_SIGNED) ? -(int)r->dtt_size : (int)r->dtt_size;
	case DT_TK_ENUM: return -4;
	case DT_TK_FLOAT: /* passed as its bit pattern */ return (int)r->dtt_size;
	default: /* pointers and strings */ return 8;
	}
}

/* A type spelled into the arena, whatever its length (NULL: out of memory). */
static char *spelled(dt_arena_t *a, const dt_type_t *t, bool cnames)
{
	size_t n = cnames ? dt_type_cname(t, NULL, 0) : dt_type_name(t, NULL, 0);
	char *buf = dt_arena_alloc(a, n + 1);

	if (buf != NULL) {
		if (cnames)
			dt_type_cname(t, buf, n + 1);
		else
			dt_type_name(t, buf, n + 1);
	}
	return buf;
}

/*
 * The C type of a probe function parameter.  Pointees are made const, so
 * that const and non-const pointers may both be passed from C++ (a probe
 * only reads); enums become int, which needs no enum definition in scope;
 * _Bool is bool in C++.
 */
static const char *param_ctype(dt_arena_t *a, const dt_type_t *t)
{
	const dt_type_t *r = dt_type_resolve(t);

	if (r->dtt_kind == DT_TK_ENUM)
		return "int";
	if (r->dtt_kind == DT_TK_INT && r->dtt_name != NULL && strcmp(r->dtt_name, "_Bool") == 0)
		return "_DTRACE_BOOL";
	if (r->dtt_kind == DT_TK_STRING)
		return "const char *";
	if (r->dtt_kind == DT_TK_PTR && r->dtt_ref != NULL) {
		dt_type_t *ref = dt_arena_alloc(a, sizeof(*ref));
		dt_type_t ptr = *r;

		if (ref == NULL)
			return NULL;
		*ref = *r->dtt_ref;
		ref->dtt_flags |= DT_TF_CONST;
		ptr.dtt_ref = ref;
		ptr.dtt_flags &= ~(DT_TF_CONST | DT_TF_VOLATILE);
		return spelled(a, &ptr, true);
	} else {
		dt_type_t copy = *t;

		copy.dtt_flags &= ~(DT_TF_CONST | DT_TF_VOLATILE);
		return spelled(a, &copy, true);
	}
}

/* The size@ part of an argument spec, as a C string literal's text. */
static const char *spec_size(const dt_type_t *t)
{
	static const char *const sz[] = { "-8", "",  "", "",  "-4", "", "-2", "-1", "0",
					  "1",	"2", "", "4", "",   "", "",   "8" };
	const dt_type_t *r = dt_type_resolve(t);

	/* plain char: the compiler decides its sign (see _DTRACE_CHAR) */
	if (r->dtt_kind == DT_TK_INT && r->dtt_name != NULL && strcmp(r->dtt_name, "char") == 0)
		return "\" _DTRACE_CHAR \"";
	return sz[arg_spec_size(t) + 8];
}

/* Forward declarations for struct and union tags reached through pointers. */
static int declare_tags(FILE *out, const dt_type_t *t, dt_strset_t *seen)
{
	const dt_type_t *r = dt_type_resolve(t);

	while (r != NULL && r->dtt_kind == DT_TK_PTR)
		r = dt_type_resolve(r->dtt_ref);
	if (r == NULL || (r->dtt_kind != DT_TK_STRUCT && r->dtt_kind != DT_TK_UNION))
		return 0;
	switch (dt_strset_add(seen, r->dtt_name, r, NULL)) {
	case -1: return -1;
	case 1:
		fprintf(out, "%s %s;\n", r->dtt_kind == DT_TK_STRUCT ? "struct" : "union",
			r->dtt_name);
		break;
	}
	return 0;
}

static void upper(char *dst, size_t len, const char *src, bool fold)
{
	size_t o = 0;

	for (size_t i = 0; src[i] != '\0' && o + 1 < len; i++) {
		if (fold && src[i] == '_' && src[i + 1] == '_')
			i++;
		dst[o++] =
		    isalnum((unsigned char)src[i]) ? (char)toupper((unsigned char)src[i]) : '_';
	}
	dst[o] = '\0';
}

static int emit_probe(FILE *out, dt_arena_t *a, const dt_provdecl_t *pv, const dt_probedecl_t *pd)
{
	char P[DT_PROVNAMELEN], N[DT_NAMELEN];
	const char *prov = pv->pv_name, *name = pd->pd_name;
	int nflt = 0;

	upper(P, sizeof(P), prov, false);
	upper(N, sizeof(N), name, true);

	fprintf(out, "/* %s:::%s (", prov, pd->pd_dname);
	for (int i = 0; i < pd->pd_nargc; i++) {
		const char *tn = spelled(a, pd->pd_nargs[i].pa_type, false);

		if (tn == NULL)
			return -1;
		fprintf(out, "%s%s", i ? ", " : "", tn);
	}
	fprintf(out, ") */\n");
	fprintf(out, "_DTRACE_SEMAPHORE(%s_%s_semaphore);\n", prov, name);
	fprintf(out, "#define %s_%s_ENABLED() _DTRACE_IS_ENABLED(%s_%s_semaphore)\n", P, N, prov,
		name);

	/* the probe function */
	fprintf(out, "static __inline__ __attribute__((__always_inline__, __unused__)) void\n");
	fprintf(out, "__dtrace_%s___%s(", prov, name);
	for (int i = 0; i < pd->pd_nargc; i++) {
		const char *tn = param_ctype(a, pd->pd_nargs[i].pa_type);

		if (tn == NULL)
			return -1;
		fprintf(out, "%s%s%s_dt_a%d", i ? ", " : "", tn,
			tn[strlen(tn) - 1] == '*' ? "" : " ", i);
	}
	fprintf(out, "%s)\n{\n", pd->pd_nargc ? "" : "void");
	/* floating-point arguments travel as their bits: declarations first (C90) */
	for (int i = 0; i < pd->pd_nargc; i++) {
		const dt_type_t *r = dt_type_resolve(pd->pd_nargs[i].pa_type);

		if (r->dtt_kind == DT_TK_FLOAT) {
			fprintf(out, "\tuint%d_t _dt_b%d;\n", (int)r->dtt_size * 8, i);
			nflt++;
		}
	}
	for (int i = 0; i < pd->pd_nargc && nflt > 0; i++) {
		const dt_type_t *r = dt_type_resolve(pd->pd_nargs[i].pa_type);

		if (r->dtt_kind == DT_TK_FLOAT)
			fprintf(out, "\t__builtin_memcpy(&_dt_b%d, &_dt_a%d, %zu);\n", i, i,
				r->dtt_size);
	}
	fprintf(out, "\t__asm__ __volatile__(_DTRACE_SITE(\"%s\", \"%s\", \"%s_%s_semaphore\", \"",
		prov, name, prov, name);
	/*
	 * 1- and 2-byte arguments name their 32-bit register (%k): gdb does not
	 * know GCC's "%r9b" spelling, and every consumer truncates to the size.
	 */
	for (int i = 0; i < pd->pd_nargc; i++) {
		int sz = arg_spec_size(pd->pd_nargs[i].pa_type);

		fprintf(out, "%s%s@%%%s[_dt_a%d]", i ? " " : "", spec_size(pd->pd_nargs[i].pa_type),
			abs(sz) < 4 ? "k" : "", i);
	}
	fprintf(out, "\")");
	if (pd->pd_nargc > 0) {
		fprintf(out, "\n\t\t: :");
		for (int i = 0; i < pd->pd_nargc; i++) {
			bool flt =
			    dt_type_resolve(pd->pd_nargs[i].pa_type)->dtt_kind == DT_TK_FLOAT;

			fprintf(out, "%s [_dt_a%d] \"nr\"(_dt_%c%d)", i ? "," : "", i,
				flt ? 'b' : 'a', i);
		}
	}
	fprintf(out, ");\n}\n");

	fprintf(out, "#define %s_%s(", P, N);
	for (int i = 0; i < pd->pd_nargc; i++)
		fprintf(out, "%sarg%d", i ? ", " : "", i);
	fprintf(out, ") __dtrace_%s___%s(", prov, name);
	for (int i = 0; i < pd->pd_nargc; i++)
		fprintf(out, "%s(arg%d)", i ? ", " : "", i);
	fprintf(out, ")\n\n");
	return 0;
}

/*
 * Compiled out: the arguments are not evaluated, but they still count as
 * used (no unused-variable warnings) and the macro stays an expression of
 * type void, as it is with probes compiled in.
 */
static void emit_disabled(FILE *out, const dt_provdecl_t *pv, const dt_probedecl_t *pd)
{
	char P[DT_PROVNAMELEN], N[DT_NAMELEN];

	upper(P, sizeof(P), pv->pv_name, false);
	upper(N, sizeof(N), pd->pd_name, true);
	fprintf(out, "#define %s_%s_ENABLED() (0)\n#define %s_%s(", P, N, P, N);
	for (int i = 0; i < pd->pd_nargc; i++)
		fprintf(out, "%sarg%d", i ? ", " : "", i);
	fprintf(out, ") (");
	for (int i = 0; i < pd->pd_nargc; i++)
		fprintf(out, "(void)sizeof(arg%d), ", i);
	fprintf(out, "(void)0)\n");
}

int dtrace_program_header(dtrace_hdl_t *dtp, FILE *out, const char *fname)
{
	const char *base = fname != NULL ? strrchr(fname, '/') : NULL;
	char guard[128] = "_";
	dt_arena_t a = { 0 };
	dt_strset_t *seen;
	int rc = 0;

	if (dtp == NULL)
		return -1;
	if (out == NULL)
		return dt_set_errno(dtp, EDT_BADARG);
	if ((seen = dt_strset_create(&a)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	base = base != NULL ? base + 1 : fname != NULL ? fname : "provider.h";
	upper(guard + 1, sizeof(guard) - 1, base, false);

	fprintf(out,
		"/*\n * Generated by dtrace -h: do not edit.\n"
		" * Define DTRACE_PROBES_DISABLED to compile the probes out.\n */\n"
		"#ifndef %s\n#define %s\n\n#include <stdint.h>\n#include <sys/types.h>\n\n",
		guard, guard);
	fputs(dg_sdt_site_h, out);
	fprintf(out, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");

	for (dtrace_prog_t *pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next)
		for (dt_provdecl_t *pv = pgp->dp_providers; pv != NULL; pv = pv->pv_next)
			for (dt_probedecl_t *pd = pv->pv_probes; pd != NULL; pd = pd->pd_next)
				for (int i = 0; i < pd->pd_nargc && rc == 0; i++)
					rc = declare_tags(out, pd->pd_nargs[i].pa_type, seen);
	fprintf(out, "\n#ifndef DTRACE_PROBES_DISABLED\n\n");
	for (dtrace_prog_t *pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next)
		for (dt_provdecl_t *pv = pgp->dp_providers; pv != NULL; pv = pv->pv_next)
			for (dt_probedecl_t *pd = pv->pv_probes; pd != NULL && rc == 0;
			     pd = pd->pd_next)
				rc = emit_probe(out, &a, pv, pd);
	fprintf(out, "#else /* DTRACE_PROBES_DISABLED */\n\n");
	for (dtrace_prog_t *pgp = dtp->dt_progs; pgp != NULL; pgp = pgp->dp_next)
		for (dt_provdecl_t *pv = pgp->dp_providers; pv != NULL; pv = pv->pv_next)
			for (dt_probedecl_t *pd = pv->pv_probes; pd != NULL; pd = pd->pd_next)
				emit_disabled(out, pv, pd);
	fprintf(out,
		"\n#endif /* DTRACE_PROBES_DISABLED */\n\n"
		"#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n",
		guard);
	dt_arena_free(&a);
	if (rc != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (fflush(out) != 0 || ferror(out))
		return dt_set_errmsg(dtp, EDT_OBJIO, "cannot write header %s: %s",
				     fname ? fname : "<stdout>", strerror(errno));
	return 0;
}
