/*
 * Unit tests of the D front-end: lexer, parser, types, diagnostics, the
 * stapsdt note parser and misuse of the public API.
 */
#include <stdlib.h>

#include "../check.h"
#include "dt_program.h"
#include "dt_provider.h"

/* ---------------------------------------------------------------- lexer */

#define MAXTOK 64

typedef struct lexed {
	int n;
	dt_token_t tok[MAXTOK];
	dtrace_hdl_t *dtp;
	dt_arena_t arena;
	int err; /* 0, or EDT_COMPILER with dtp's diagnostic */
} lexed_t;

static void lex_all(lexed_t *lx, const char *src, size_t len, bool clause_start)
{
	dt_pcb_t pcb;

	memset(lx, 0, sizeof(*lx));
	lx->dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	memset(&pcb, 0, sizeof(pcb));
	pcb.pcb_hdl = lx->dtp;
	pcb.pcb_arena = &lx->arena;
	pcb.pcb_buf = src;
	pcb.pcb_len = len;
	pcb.pcb_file = "t.d";
	if ((lx->err = setjmp(pcb.pcb_jmp)) != 0)
		return;
	dt_lex_init(&pcb);
	pcb.pcb_clause_start = clause_start; /* probe descriptions, or inside a clause */
	do {
		dt_lex_next(&pcb);
		lx->tok[lx->n++] = pcb.pcb_tok;
	} while (pcb.pcb_tok.tk_kind != T_EOF && lx->n < MAXTOK);
}

static void lex_done(lexed_t *lx)
{
	dt_arena_free(&lx->arena);
	dtrace_close(lx->dtp);
}

static void test_lex_numbers(void)
{
	const char *src = "0 42 0x1F 017 18446744073709551615 10u 7UL 9ll 'a' '\\n' '\\x41' 'ab'";
	lexed_t lx;

	lex_all(&lx, src, strlen(src), false);
	CHECK_INT(lx.err, 0);
	CHECK_INT(lx.n, 13);
	CHECK_INT(lx.tok[0].tk_ival, 0);
	CHECK_INT(lx.tok[1].tk_ival, 42);
	CHECK_INT(lx.tok[2].tk_ival, 31);
	CHECK_INT(lx.tok[3].tk_ival, 15);
	CHECK(lx.tok[4].tk_ival == UINT64_MAX);
	CHECK_INT(lx.tok[5].tk_flags, DT_INT_UNSIGNED);
	CHECK_INT(lx.tok[6].tk_flags, DT_INT_UNSIGNED | DT_INT_LONG);
	CHECK_INT(lx.tok[7].tk_flags, DT_INT_LONGLONG);
	CHECK_INT(lx.tok[8].tk_kind, T_CHAR);
	CHECK_INT(lx.tok[8].tk_ival, 'a');
	CHECK_INT(lx.tok[9].tk_ival, '\n');
	CHECK_INT(lx.tok[10].tk_ival, 'A');
	CHECK_INT(lx.tok[11].tk_ival, ('a' << 8) | 'b');
	CHECK_INT(lx.tok[12].tk_kind, T_EOF);
	lex_done(&lx);
}

static void test_lex_strings(void)
{
	const char src[] = "\"a\\tb\\0c\\\"\\\\\" \"\\101\\x42\"";
	lexed_t lx;

	lex_all(&lx, src, sizeof(src) - 1, false);
	CHECK_INT(lx.err, 0);
	CHECK_INT(lx.tok[0].tk_kind, T_STRING);
	CHECK_INT(lx.tok[0].tk_len, 7);
	CHECK(memcmp(lx.tok[0].tk_str, "a\tb\0c\"\\", 7) == 0);
	CHECK_STR(lx.tok[1].tk_str, "AB");
	lex_done(&lx);
}

static void test_lex_operators_and_specials(void)
{
	const char *src = "a->b <<= >>= ... ^^ $1 $$target @agg @ `x self this probe";
	static const dt_tok_t want[] = { T_IDENT, T_ARROW, T_IDENT,  T_SHL_EQ, T_SHR_EQ, T_ELLIPSIS,
					 T_LXOR,  T_MACRO, T_MACSTR, T_AGG,    T_AGG,	 T_BQUOTE,
					 T_IDENT, T_SELF,  T_THIS,   T_PROBE,  T_EOF };
	lexed_t lx;

	lex_all(&lx, src, strlen(src), false);
	CHECK_INT(lx.err, 0);
	CHECK_INT(lx.n, (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < lx.n && i < (int)(sizeof(want) / sizeof(want[0])); i++)
		CHECK_INT(lx.tok[i].tk_kind, want[i]);
	CHECK_STR(lx.tok[7].tk_str, "1");
	CHECK_STR(lx.tok[8].tk_str, "target");
	CHECK_STR(lx.tok[9].tk_str, "agg");
	CHECK_STR(lx.tok[10].tk_str, "");
	lex_done(&lx);
}

/* Probe descriptions: a module that is a path, and '/' that begins a predicate. */
static void test_lex_pspec_paths(void)
{
	static const struct {
		const char *src, *pspec;
	} cases[] = {
		{ "python:/usr/bin/python3.11::function-entry { }",
		  "python:/usr/bin/python3.11::function-entry" },
		{ "p:/a/b-c/d.so.1:f:n,", "p:/a/b-c/d.so.1:f:n" },
		{ ":/x/y::", ":/x/y::" },	       /* what -m /x/y makes */
		{ "a:b:c:d/x/ { }", "a:b:c:d" },       /* a predicate after the name */
		{ "syscall:::/y/ { }", "syscall:::" }, /* and after an empty name */
		{ "BEGIN/z/ { }", "BEGIN" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lexed_t lx;

		lex_all(&lx, cases[i].src, strlen(cases[i].src), true);
		CHECK_INT(lx.err, 0);
		CHECK_INT(lx.tok[0].tk_kind, T_PSPEC);
		CHECK_STR(lx.tok[0].tk_str, cases[i].pspec);
		lex_done(&lx);
	}
}

static void test_lex_locations(void)
{
	const char *src = "/* c\n */ a\n\t b // x\n# 40 \"other.d\"\nc\n#pragma D option q\nd";
	lexed_t lx;

	lex_all(&lx, src, strlen(src), false);
	CHECK_INT(lx.err, 0);
	CHECK_INT(lx.n, 6);
	CHECK_INT(lx.tok[0].tk_loc.line, 2);
	CHECK_INT(lx.tok[0].tk_loc.col, 5);
	CHECK_INT(lx.tok[1].tk_loc.line, 3);
	CHECK_INT(lx.tok[1].tk_loc.col, 3);
	CHECK_STR(lx.tok[2].tk_loc.file, "other.d");
	CHECK_INT(lx.tok[2].tk_loc.line, 40);
	CHECK_INT(lx.tok[3].tk_kind, T_PRAGMA);
	CHECK_STR(lx.tok[3].tk_str, "D option q");
	CHECK_INT(lx.tok[4].tk_loc.line, 42);
	lex_done(&lx);
}

static void expect_lex_error(const char *src, size_t len, const char *tag, unsigned line,
			     unsigned col)
{
	lexed_t lx;
	const dtrace_diag_t *dg;

	lex_all(&lx, src, len, false);
	CHECK_INT(lx.err, EDT_COMPILER);
	dg = dtrace_lastdiag(lx.dtp);
	CHECK(dg != NULL);
	if (dg != NULL) {
		CHECK_STR(dg->dtdg_tag, tag);
		CHECK_INT(dg->dtdg_line, line);
		CHECK_INT(dg->dtdg_column, col);
	}
	lex_done(&lx);
}

static void test_lex_errors(void)
{
	expect_lex_error("a /* x", 6, "D_SYNTAX", 1, 3);
	expect_lex_error("\n  \"abc\n\"", 9, "D_STR_NL", 2, 3);
	expect_lex_error("''", 2, "D_CHR_NULL", 1, 1);
	expect_lex_error("'123456789'", 11, "D_CHR_OFLOW", 1, 1);
	expect_lex_error("99999999999999999999", 20, "D_INT_OFLOW", 1, 1);
	expect_lex_error("09", 2, "D_INT_DIGIT", 1, 1);
	expect_lex_error("0x", 2, "D_SYNTAX", 1, 1);
	expect_lex_error("1.5", 3, "D_SYNTAX", 1, 1);
	expect_lex_error("12abc", 5, "D_SYNTAX", 1, 1);
	expect_lex_error("x \\q", 4, "D_SYNTAX", 1, 3);
	expect_lex_error("\"\\x\"", 4, "D_SYNTAX", 1, 2);
	expect_lex_error("$", 1, "D_SYNTAX", 1, 1);
	expect_lex_error("a\0b", 3, "D_SYNTAX", 1, 2);
	expect_lex_error("\xff", 1, "D_SYNTAX", 1, 1);
	expect_lex_error("#define X 1\n", 12, "D_PRAGCTL_INVAL", 1, 1);
	expect_lex_error("\"\\777\"", 6, "D_SYNTAX", 1, 2);
}

/* ---------------------------------------------------------------- parser */

static dtrace_prog_t *compile(dtrace_hdl_t *dtp, const char *src)
{
	return dtrace_program_strcompile(dtp, src, "t.d", 0, 0, NULL);
}

static void test_parse_provider(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	const char *src = "typedef struct req req_t;\n"
			  "struct reqinfo { int ri_id; };\n"
			  "translator struct reqinfo < struct req *r > { ri_id = 1; };\n"
			  "provider web {\n"
			  "  probe request__start(req_t *r, const char *url, uint16_t port);\n"
			  "  probe done(void);\n"
			  "  probe xl(struct req *) : (struct reqinfo *);\n"
			  "};\n"
			  "#pragma D attributes Stable/Evolving/ISA provider web args\n";
	dtrace_prog_t *pgp = compile(dtp, src);
	dt_provdecl_t *pv;
	dt_probedecl_t *pd;
	char buf[64];

	CHECK(pgp != NULL);
	if (pgp == NULL) {
		fprintf(stderr, "%s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return;
	}
	CHECK_INT(pgp->dp_nproviders, 1);
	pv = pgp->dp_providers;
	CHECK_STR(pv->pv_name, "web");
	CHECK_INT(pv->pv_nprobes, 3);
	CHECK_INT(pv->pv_attr[4].name, 6);   /* Stable */
	CHECK_INT(pv->pv_attr[4].data, 5);   /* Evolving */
	CHECK_INT(pv->pv_attr[4].dclass, 4); /* ISA */
	CHECK_INT(pv->pv_attr[0].name, 1);   /* default Private */
	pd = pv->pv_probes;
	CHECK_STR(pd->pd_name, "request__start");
	CHECK_STR(pd->pd_dname, "request-start");
	CHECK_INT(pd->pd_nargc, 3);
	CHECK_STR(pd->pd_nargs[1].pa_name, "url");
	CHECK_INT(pd->pd_loc.line, 5);
	dt_type_name(pd->pd_nargs[0].pa_type, buf, sizeof(buf));
	CHECK_STR(buf, "req_t *");
	dt_type_cname(pd->pd_nargs[0].pa_type, buf, sizeof(buf));
	CHECK_STR(buf, "struct req *");
	dt_type_name(pd->pd_nargs[1].pa_type, buf, sizeof(buf));
	CHECK_STR(buf, "const char *");
	CHECK_INT(dt_type_resolve(pd->pd_nargs[2].pa_type)->dtt_size, 2);
	CHECK(!(dt_type_resolve(pd->pd_nargs[2].pa_type)->dtt_flags & DT_TF_SIGNED));
	pd = pd->pd_next;
	CHECK_INT(pd->pd_nargc, 0);
	pd = pd->pd_next;
	CHECK_INT(pd->pd_xargc, 1);
	CHECK(pd->pd_xargs != pd->pd_nargs);
	dt_type_name(pd->pd_xargs[0].pa_type, buf, sizeof(buf));
	CHECK_STR(buf, "struct reqinfo *");
	dtrace_close(dtp);
}

static void test_type_spellings(void)
{
	static const struct {
		const char *decl, *d, *c;
		size_t size;
		bool sgn;
	} cases[] = {
		{ "unsigned", "unsigned int", "unsigned int", 4, false },
		{ "long int", "long", "long", 8, true },
		{ "unsigned long long int", "unsigned long long", "unsigned long long", 8, false },
		{ "short unsigned", "unsigned short", "unsigned short", 2, false },
		{ "signed char", "signed char", "signed char", 1, true },
		{ "uint_t", "uint_t", "unsigned int", 4, false },
		{ "uint64_t", "uint64_t", "uint64_t", 8, false },
		{ "const volatile int", "const volatile int", "const volatile int", 4, true },
		{ "char *const", "char *const", "char *const", 8, false },
		{ "string", "string", "char *", 256, false },
		{ "long double", "long double", "long double", 16, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
		char src[128], buf[64];
		dtrace_prog_t *pgp;
		const dt_type_t *t;

		snprintf(src, sizeof(src), "typedef %s T_t; provider p { probe a(T_t *); };",
			 cases[i].decl);
		pgp = compile(dtp, src);
		CHECK(pgp != NULL);
		if (pgp == NULL) {
			fprintf(stderr, "  %s: %s\n", cases[i].decl,
				dtrace_errmsg(dtp, dtrace_errno(dtp)));
			dtrace_close(dtp);
			continue;
		}
		/* the argument is T_t *; look through the pointer and typedef */
		t = pgp->dp_providers->pv_probes->pd_nargs[0].pa_type->dtt_ref->dtt_ref;
		dt_type_name(t, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].d);
		dt_type_cname(t, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].c);
		CHECK_INT(dt_type_resolve(t)->dtt_size, cases[i].size);
		CHECK_INT(!!(dt_type_resolve(t)->dtt_flags & DT_TF_SIGNED), cases[i].sgn);
		dtrace_close(dtp);
	}
}

static void expect_compile_error(const char *src, const char *tag, unsigned line)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	const dtrace_diag_t *dg;

	if (compile(dtp, src) != NULL) {
		CHECK(!"compiled, expected an error");
		fprintf(stderr, "  source: %s\n", src);
	}
	CHECK_INT(dtrace_errno(dtp), EDT_COMPILER);
	dg = dtrace_lastdiag(dtp);
	CHECK(dg != NULL);
	if (dg != NULL) {
		CHECK_STR(dg->dtdg_tag, tag);
		CHECK_INT(dg->dtdg_line, line);
		CHECK_STR(dg->dtdg_file, "t.d");
	}
	dtrace_close(dtp);
}

static void test_parse_errors(void)
{
	expect_compile_error("provider {", "D_SYNTAX", 1);
	expect_compile_error("provider p { probe a(int) }", "D_SYNTAX", 1);
	expect_compile_error("provider p { probe a(int); }", "D_SYNTAX", 1);
	expect_compile_error("provider p {\n probe a(foo_t); };", "D_TYPE_ERR", 2);
	expect_compile_error("provider p { probe a(const foo_t); };", "D_TYPE_ERR", 1);
	expect_compile_error("provider p { probe a(int, int, int, int, int, int, int, int, int, "
			     "int, int, int, int); };",
			     "D_PROV_PRARGLEN", 1);
	expect_compile_error("provider p { probe a() : (int, int, int, int, int, int, int, int, "
			     "int, int, int, int, int); };",
			     "D_PROV_PRARGLEN", 1);
	expect_compile_error("provider p { probe a(); probe a(); };", "D_PROV_PRDUP", 1);
	expect_compile_error("provider p { probe a(); };\nprovider p { probe a(); };",
			     "D_PROV_PRDUP", 2);
	expect_compile_error("provider p { probe a(void, int); };", "D_DECL_PROTO_VOID", 1);
	expect_compile_error("provider p { probe a(struct dt_nokernel_s); };", "D_DECL_INCOMPLETE",
			     1);
	expect_compile_error("provider p { probe a(int (*f)(void)); };", "D_DECL_PROTO_TYPE", 1);
	expect_compile_error("provider p { probe a(long double); };", "D_DECL_PROTO_TYPE", 1);
	expect_compile_error("provider p { probe a(unsigned unsigned); };", "D_DECL_COMBO", 1);
	expect_compile_error("provider p { probe a(short long); };", "D_DECL_COMBO", 1);
	expect_compile_error("provider p { probe a(long long long); };", "D_DECL_COMBO", 1);
	expect_compile_error("provider p { probe a(unsigned string); };", "D_DECL_SIGNINT", 1);
	expect_compile_error("provider p { probe a(uint64_t unsigned); };", "D_DECL_COMBO", 1);
	expect_compile_error("provider p { probe a(int x[0]); };", "D_DECL_ARRSUB", 1);
	expect_compile_error("BEGIN { exit(0) ", "D_SYNTAX", 1);
	expect_compile_error("#pragma D\n", "D_EMPTY", 1);
	expect_compile_error("", "D_EMPTY", 1);
	expect_compile_error("#pragma D option", "D_PRAGMA_MALFORM", 1);
	expect_compile_error("provider p { probe a(); };\n#pragma D attributes A/B/C provider p "
			     "name",
			     "D_PRAGMA_INVAL", 2);
	expect_compile_error("provider p { probe a(); };\n#pragma D attributes "
			     "Stable/Stable/Common provider p bogus",
			     "D_PRAGMA_INVAL", 2);
}

/* ---------------------------------------------------------------- API misuse */

static void test_api_misuse(void)
{
	dtrace_hdl_t *dtp;
	int err = 0;

	CHECK(dtrace_open(DTRACE_VERSION + 1, 0, &err) == NULL);
	CHECK_INT(err, EDT_VERSION);
	CHECK(dtrace_open(DTRACE_VERSION, 1, &err) == NULL);
	CHECK_INT(err, EDT_BADARG);
	dtrace_close(NULL);
	CHECK_STR(dtrace_errmsg(NULL, EDT_NOMEM), "Memory allocation failure");
	CHECK_STR(dtrace_errmsg(NULL, 99999), "Unknown error");

	dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	CHECK(dtp != NULL);
	CHECK_INT(dtrace_setopt(dtp, "nosuchoption", "1"), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADOPTNAME);
	CHECK_INT(dtrace_setopt(dtp, "incdir", NULL), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADOPTVAL);
	CHECK_INT(dtrace_setopt(dtp, NULL, NULL), -1);
	CHECK(dtrace_program_strcompile(dtp, NULL, NULL, 0, 0, NULL) == NULL);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK(dtrace_program_strcompile(dtp, "", NULL, 0x100000, 0, NULL) == NULL);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK(dtrace_program_fcompile(dtp, NULL, NULL, 0, 0, NULL) == NULL);
	CHECK(dtrace_lastdiag(dtp) == NULL);
	dtrace_program_destroy(dtp, NULL);
	/* an empty program compiles; destroying it twice is not possible,
	 * destroying it once leaves the handle usable */
	{
		dtrace_prog_t *pgp = compile(dtp, "BEGIN { }");

		CHECK(pgp != NULL);
		dtrace_program_destroy(dtp, pgp);
		CHECK(compile(dtp, "provider x { probe y(); };") != NULL);
	}
	/* cpp that does not exist */
	CHECK_INT(dtrace_setopt(dtp, "cpppath", "/nonexistent/cpp"), 0);
	CHECK(dtrace_program_strcompile(dtp, "provider x {};", NULL, DTRACE_C_CPP, 0, NULL) ==
	      NULL);
	CHECK_INT(dtrace_errno(dtp), EDT_CPP);
	CHECK(strstr(dtrace_errmsg(dtp, EDT_CPP), "/nonexistent/cpp") != NULL);
	dtrace_close(dtp);
}

static void test_cpp(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;

	CHECK_INT(dtrace_setopt(dtp, "define", "NARGS_T=uint32_t"), 0);
	pgp = dtrace_program_strcompile(dtp,
					"#define P(n) probe n(NARGS_T)\n"
					"provider c {\n P(one);\n P(two);\n};\n",
					"c.d", DTRACE_C_CPP, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp != NULL) {
		CHECK_INT(pgp->dp_providers->pv_nprobes, 2);
		CHECK_INT(pgp->dp_providers->pv_probes->pd_loc.line, 3);
		CHECK_STR(pgp->dp_providers->pv_probes->pd_loc.file, "c.d");
	}
	/* errors after cpp keep the file's own line numbers */
	CHECK(dtrace_program_strcompile(dtp, "#define X\n\nX\nprovider c { probe a() };\n", "c.d",
					DTRACE_C_CPP, 0, NULL) == NULL);
	CHECK(dtrace_lastdiag(dtp) != NULL && dtrace_lastdiag(dtp)->dtdg_line == 4);
	dtrace_close(dtp);
}

/* ---------------------------------------------------------------- stapsdt */

static size_t make_desc(char *buf, const char *prov, const char *name, const char *args)
{
	uint64_t v[3] = { 0x1234, 0x2000, 0x4000 };
	size_t n = 24;

	memcpy(buf, v, 24);
	strcpy(buf + n, prov);
	n += strlen(prov) + 1;
	strcpy(buf + n, name);
	n += strlen(name) + 1;
	if (args != NULL) {
		strcpy(buf + n, args);
		n += strlen(args) + 1;
	}
	return n;
}

static void test_stapsdt_parse(void)
{
	dt_stapsdt_note_t n;
	char buf[512];
	size_t len;

	len = make_desc(buf, "prov", "probe", "-4@%eax 8@-16(%rbp) 1@$5 %rdi");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK(n.sn_pc == 0x1234 && n.sn_base == 0x2000 && n.sn_sema == 0x4000);
	CHECK_STR(n.sn_provider, "prov");
	CHECK_STR(n.sn_name, "probe");
	CHECK_INT(n.sn_nargs, 4);
	CHECK_INT(n.sn_args[0].sa_size, 4);
	CHECK(n.sn_args[0].sa_signed);
	CHECK_STR(n.sn_args[0].sa_operand, "%eax");
	CHECK_STR(n.sn_args[1].sa_operand, "-16(%rbp)");
	CHECK(!n.sn_args[1].sa_signed);
	CHECK_STR(n.sn_args[2].sa_operand, "$5");
	CHECK_INT(n.sn_args[3].sa_size, 8);
	CHECK_STR(n.sn_args[3].sa_operand, "%rdi");

	len = make_desc(buf, "p", "noargs", NULL);
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, 0);

	/* malformed: each must be refused, never read past the end */
	CHECK_INT(dt_stapsdt_parse(buf, 10, &n), -1);
	len = make_desc(buf, "p", "x", "3@%eax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x", "16@%eax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x", "4@");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x", "4x@%eax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	/* <sys/sdt.h>'s floating-point arguments: 4f@ and 8f@, never signed or other sizes */
	len = make_desc(buf, "p", "x", "8f@%rax 4f@-20(%rsp) -4@%edx");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, 3);
	CHECK(n.sn_args[0].sa_float && n.sn_args[0].sa_size == 8 && !n.sn_args[0].sa_signed);
	CHECK_STR(n.sn_args[0].sa_operand, "%rax");
	CHECK(n.sn_args[1].sa_float && n.sn_args[1].sa_size == 4);
	CHECK_STR(n.sn_args[1].sa_operand, "-20(%rsp)");
	CHECK(!n.sn_args[2].sa_float && n.sn_args[2].sa_signed);
	len = make_desc(buf, "p", "x", "2f@%ax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x", "-8f@%rax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x", "8ff@%rax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x",
			"4@%eax 4@%eax 4@%eax 4@%eax 4@%eax 4@%eax 4@%eax 4@%eax 4@%eax 4@%eax "
			"4@%eax 4@%eax 4@%eax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0); /* 13 arguments */
	CHECK_INT(n.sn_nargs, -1);
	len = make_desc(buf, "p", "x",
			"-4@_ZN12my_namespace14some_long_name_of_a_variableE+12(%rip) 8@%rax");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), 0);
	CHECK_INT(n.sn_nargs, 2); /* long operands are fine */
	len = make_desc(buf, "", "x", "");
	CHECK_INT(dt_stapsdt_parse(buf, len, &n), -1);
	len = make_desc(buf, "p", "x", "4@%eax");
	CHECK_INT(dt_stapsdt_parse(buf, len - 1, &n), -1); /* no final NUL */
	memset(buf + 24, 'a', 100);
	CHECK_INT(dt_stapsdt_parse(buf, 124, &n), -1);
}

static int count_probe(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pd, void *arg)
{
	(void)dtp;
	(void)pd;
	++*(int *)arg;
	return 0;
}

static int stop_at_two(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pd, void *arg)
{
	(void)dtp;
	(void)arg;
	return pd->dtpd_id == 2 ? 7 : 0;
}

static void test_probe_descriptions(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_probedesc_t pd;
	char big[300];
	int n = 0;

	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "a:b:c:d", &pd), 0);
	CHECK_STR(pd.dtpd_provider, "a");
	CHECK_STR(pd.dtpd_mod, "b");
	CHECK_STR(pd.dtpd_func, "c");
	CHECK_STR(pd.dtpd_name, "d");
	/* fewer fields fill from the right */
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "f:n", &pd), 0);
	CHECK_STR(pd.dtpd_provider, "");
	CHECK_STR(pd.dtpd_mod, "");
	CHECK_STR(pd.dtpd_func, "f");
	CHECK_STR(pd.dtpd_name, "n");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "::", &pd), 0);
	CHECK_STR(pd.dtpd_mod, "");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_MOD, "libc.so.6", &pd), 0);
	CHECK_STR(pd.dtpd_mod, "libc.so.6");
	CHECK_STR(pd.dtpd_name, "");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "a:b:c:d:e", &pd), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADPSPEC);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_FUNC, big, &pd), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADPSPEC);
	CHECK_INT(dtrace_str2desc(dtp, 9, "x", &pd), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK_INT(dtrace_str2desc(NULL, DTRACE_PROBESPEC_NONE, "x", &pd), -1);

	/* the fixed probes, with globs; a callback's value stops the walk */
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "profile:::tick-*", &pd), 0);
	CHECK_INT(dtrace_probe_iter(dtp, &pd, count_probe, &n), 0);
	CHECK_INT(n, 6);
	CHECK_INT(dtrace_probe_iter(dtp, NULL, stop_at_two, NULL), 7);
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_PROVIDER, "nosuch", &pd), 0);
	CHECK_INT(dtrace_probe_iter(dtp, &pd, count_probe, &n), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_NOPROBE);
	CHECK_INT(dtrace_probe_iter(dtp, NULL, NULL, NULL), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	CHECK_INT(dtrace_probe_iter(NULL, NULL, count_probe, &n), -1);
	dtrace_close(dtp);
}

/* A description's provider against a probe's: globs, and the runtime providers' old names. */
static bool prov_matches(const char *pattern, const char *prov)
{
	dtrace_probedesc_t pat, p;

	memset(&pat, 0, sizeof(pat));
	memset(&p, 0, sizeof(p));
	snprintf(pat.dtpd_provider, sizeof(pat.dtpd_provider), "%s", pattern);
	snprintf(p.dtpd_provider, sizeof(p.dtpd_provider), "%s", prov);
	snprintf(p.dtpd_name, sizeof(p.dtpd_name), "function-entry");
	return dt_probe_match(&pat, &p);
}

static void test_provider_aliases(void)
{
	CHECK(prov_matches("lua_rt1234", "lua_rt1234"));
	CHECK(prov_matches("lua1234", "lua_rt1234")); /* lua$target: the old name */
	CHECK(prov_matches("lua", "lua_rt"));	      /* a file's probes: no PID */
	CHECK(prov_matches("lua*", "lua_rt77"));
	CHECK(prov_matches("lu?1234", "lua_rt1234"));
	CHECK(!prov_matches("lua1234", "lua_rt12345")); /* another process */
	CHECK(!prov_matches("lua1234", "lua_rtx1234")); /* not lua_rt */
	CHECK(!prov_matches("lua1234", "lua_rt"));
	CHECK(!prov_matches("lua_rt1234", "lua1234"));	     /* no alias the other way */
	CHECK(!prov_matches("python1234", "python_rt1234")); /* python is CPython's own */
	CHECK(!prov_matches("node1234", "node_rt1234"));     /* node is the binding's node */
}

/*
 * Programs compiled into one handle share variables and aggregations by
 * name: the same name must be the same kind of value in each; and a
 * compile that fails leaves nothing of its own in the shared state (a
 * binding may compile again on the handle).
 */
static void test_shared_state(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dt_pstate_t *ps;

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { x = \"abc\"; @a[1] = count(); }", "a.d", 0, 0,
					NULL) != NULL);
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { x = 1; }", "b.d", 0, 0, NULL) == NULL);
	CHECK_STR(dtp->dt_diag.dtdg_tag, "D_OP_INCOMPAT");
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { @a[\"k\"] = count(); }", "c.d", 0, 0, NULL) ==
	      NULL);
	CHECK_STR(dtp->dt_diag.dtdg_tag, "D_AGG_REDEF");
	ps = dtp->dt_pstate;
	CHECK(ps != NULL);
	if (ps == NULL) {
		dtrace_close(dtp);
		return;
	}
	CHECK_INT((int)ps->ps_naggs, 1);
	/* fails at code generation after @b and y were made: neither stays */
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { @b = sum(1); y = \"s\"; ustack(5000); }",
					"d.d", 0, 0, NULL) == NULL);
	CHECK_STR(dtp->dt_diag.dtdg_tag, "D_CG_LIMIT");
	CHECK_INT((int)ps->ps_naggs, 1);
	CHECK(dt_strset_get(ps->ps_vars, "y") == NULL);
	CHECK(dt_strset_get(ps->ps_vars, "@b") == NULL);
	/* so @b and y may be something else now */
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { @b = count(); y = 2; }", "e.d", 0, 0, NULL) !=
	      NULL);
	CHECK_INT((int)ps->ps_naggs, 2);
	CHECK(dt_strset_get(ps->ps_vars, "y") != NULL);
	dtrace_close(dtp);
}

/* ---------------------------------------------------------------- argument descriptions */

static void type_spelled(dt_typetab_t *tt, const char *s, const char *want)
{
	dt_type_t *t = dt_type_parse_string(tt, s);
	char buf[128] = "";

	if (want == NULL) {
		if (t != NULL)
			fprintf(stderr, "  %s: parsed, expected NULL\n", s);
		CHECK(t == NULL);
		return;
	}
	CHECK(t != NULL);
	if (t != NULL)
		dt_type_name(t, buf, sizeof(buf));
	CHECK_STR(buf, want);
}

static void test_type_strings(void)
{
	dt_arena_t arena = { 0 };
	dt_typetab_t *tt = dt_typetab_create(&arena, true);

	CHECK(tt != NULL);
	if (tt == NULL)
		return;
	type_spelled(tt, "int", "int");
	type_spelled(tt, "const char *", "const char *");
	type_spelled(tt, "char **", "char **");
	type_spelled(tt, "unsigned long long", "unsigned long long");
	type_spelled(tt, "uint64_t", "uint64_t");
	type_spelled(tt, "struct file *", "struct file *");
	type_spelled(tt, "char *const *", "char *const *");
	type_spelled(tt, "loff_t *",
		     NULL); /* a kernel typedef: this table has no handle, so no BTF */
	type_spelled(tt, "struct", NULL);
	type_spelled(tt, "int [4]", NULL);
	type_spelled(tt, "", NULL);
	dt_arena_free(&arena);
}

static const dt_argdesc_t kst_args[] = {
	{ "int", NULL, 0 },
	{ "const char *", NULL, 1 },
	{ "uint64_t", NULL, 2 },
	{ "dt_nokernel_t *", NULL, 3 }, /* neither D's nor the kernel's (BTF) */
};
/* args[0] is native 1 made a uint64_t, args[1] native 0 as it is */
static const dt_argdesc_t kst_xargs[] = {
	{ "int", "uint64_t", 1 },
	{ "int", NULL, 0 },
};
static const dt_argdesc_t kst_other[] = { { "long", NULL, 0 } };
/* a translated argument whose native type D does not know */
static const dt_argdesc_t kst_badx[] = { { "dt_nokernel_t", "uint64_t", 0 } };

/* a provider that promises the same arguments for a name: Evolving names and arguments */
static const dt_pattr_t kst_evolving = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

static void add_kst_probe_attr(dtrace_hdl_t *dtp, const char *func, const char *name,
			       const dt_argdesc_t *args, int n, const dt_pattr_t *attr)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_profile,
			  .pi_kind = DT_PK_TICK,
			  .pi_args = args,
			  .pi_nargs = n,
			  .pi_attr = attr };
	dt_ptab_t t;

	CHECK_INT(dt_probe_table(dtp), 0);
	t = dt_ptab_get(dtp);
	CHECK_INT(dt_ptab_add(&t, "kst", "mod", func, name, &pi), 0);
	dt_ptab_put(dtp, &t);
}

static void add_kst_probe(dtrace_hdl_t *dtp, const char *func, const char *name,
			  const dt_argdesc_t *args, int n)
{
	add_kst_probe_attr(dtp, func, name, args, n, NULL);
}

static void expect_on(dtrace_hdl_t *dtp, const char *src, const char *tag)
{
	dtrace_prog_t *pgp = compile(dtp, src);
	const dtrace_diag_t *dg;

	if (tag == NULL) {
		if (pgp == NULL)
			fprintf(stderr, "  %s: %s\n", src, dtrace_errmsg(dtp, dtrace_errno(dtp)));
		CHECK(pgp != NULL);
		return;
	}
	CHECK(pgp == NULL);
	dg = dtrace_lastdiag(dtp);
	CHECK(dg != NULL);
	if (dg != NULL)
		CHECK_STR(dg->dtdg_tag, tag);
}

/*
 * A probe whose provider describes its arguments (pi_args) types args[]
 * with no provider definition in the program; dtrace_probe_info reports
 * them (dtrace -l -v).
 */
static void test_arg_descriptions(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_probeinfo_t info;
	dtrace_probedesc_t pd;
	const dtrace_diag_t *dg;

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	add_kst_probe(dtp, "fn", "args", kst_args, 4);
	add_kst_probe(dtp, "fn2", "args", kst_args, 4); /* the same: no ambiguity */
	add_kst_probe(dtp, "fn", "xargs", kst_xargs, 2);
	add_kst_probe(dtp, "fn", "other", kst_other, 1);
	add_kst_probe(dtp, "fn2", "other", kst_args, 4);
	add_kst_probe(dtp, "fn", "bare", NULL, 0);
	add_kst_probe(dtp, "fn", "badx", kst_badx, 1);

	expect_on(dtp, "kst:::args { x = args[0] + args[2]; y = args[1]; }", NULL);
	/* the types are the provider's: int has no members, a string pointer is a pointer */
	expect_on(dtp, "kst:::args { x = args[0]->a; }", "D_OP_PTR");
	expect_on(dtp, "kst:::args { x = args[4]; }", "D_ARGS_IDX");
	expect_on(dtp, "kst:::args { x = args[3]; }", "D_ARGS_TYPE");
	dg = dtrace_lastdiag(dtp);
	if (dg != NULL)
		CHECK(strstr(dg->dtdg_message, "dt_nokernel_t *") != NULL);
	expect_on(dtp, "kst:::other { x = args[0]; }", "D_ARGS_MULTI");
	expect_on(dtp, "kst::fn:other { x = args[0] + 1; }", NULL);
	expect_on(dtp, "kst:::bare { x = args[0]; }", "D_ARGS_NONE");
	expect_on(dtp, "kst:::xargs { x = args[0]; y = args[1]; }", NULL);
	expect_on(dtp, "kst:::xargs { x = args[2]; }", "D_ARGS_IDX");
	expect_on(dtp, "kst:::badx { x = args[0]; }", "D_ARGS_TYPE");

	/* what dtrace -l -v prints */
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "kst:mod:fn:args", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), 0);
	CHECK_INT(info.dtp_argc, 4);
	CHECK_STR(info.dtp_argv[1], "const char *");
	CHECK_STR(info.dtp_argv[3], "dt_nokernel_t *");
	/* no attributes given: Private/Private/Unknown */
	CHECK_STR(dtrace_stability_name(info.dtp_attr.dtat_name), "Private");
	CHECK_STR(dtrace_class_name(info.dtp_arga.dtat_class), "Unknown");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "kst:mod:fn:xargs", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), 0);
	CHECK_INT(info.dtp_argc, 2);
	CHECK_STR(info.dtp_argv[0], "uint64_t"); /* the translated type */
	CHECK_STR(info.dtp_argv[1], "int");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "kst:::args", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_UNSTABLE);
	/* several probes of a provider that promises their arguments alike (illumos' rule) */
	add_kst_probe_attr(dtp, "f1", "same", kst_other, 1, &kst_evolving);
	add_kst_probe_attr(dtp, "f2", "same", kst_other, 1, &kst_evolving);
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "kst:::same", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), 0);
	CHECK_INT(info.dtp_argc, 1);
	CHECK_STR(info.dtp_argv[0], "long");
	CHECK_STR(dtrace_stability_name(info.dtp_attr.dtat_name), "Evolving");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "kst:::sam?", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), -1); /* the name, Evolving, globbed */
	CHECK_INT(dtrace_errno(dtp), EDT_UNSTABLE);
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "kst:::nosuch", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_NOPROBE);
	/* a glob provider: illumos' Unstable/Unstable/Common; a stable provider's BEGIN */
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "d*:::BEGIN", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), 0);
	CHECK_STR(dtrace_stability_name(info.dtp_attr.dtat_data), "Unstable");
	CHECK_STR(dtrace_class_name(info.dtp_attr.dtat_class), "Common");
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "dtrace:::BEGIN", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), 0);
	CHECK_STR(dtrace_stability_name(info.dtp_attr.dtat_name), "Stable");
	CHECK_INT(info.dtp_argc, 0);
	/* glob module and function: they do not count */
	CHECK_INT(dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, "dtrace:*:*:BEGIN", &pd), 0);
	CHECK_INT(dtrace_probe_info(dtp, &pd, &info), 0);
	CHECK_STR(dtrace_stability_name(info.dtp_attr.dtat_name), "Stable");
	CHECK_STR(dtrace_stability_name(99), "Unknown");
	CHECK_STR(dtrace_class_name(-1), "Unknown");
	CHECK_INT(dtrace_probe_info(dtp, NULL, &info), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADARG);
	dtrace_close(dtp);
}

int main(void)
{
	test_lex_numbers();
	test_lex_strings();
	test_lex_operators_and_specials();
	test_lex_pspec_paths();
	test_lex_locations();
	test_lex_errors();
	test_parse_provider();
	test_type_spellings();
	test_parse_errors();
	test_api_misuse();
	test_cpp();
	test_stapsdt_parse();
	test_probe_descriptions();
	test_provider_aliases();
	test_shared_state();
	test_type_strings();
	test_arg_descriptions();
	return CHECK_DONE();
}
