/*
 * test_builtin.c -- the table of D's built-ins (dt_builtin.c): each id has
 * the row at its index, named as the id spells it; names are unique and
 * found again by name; each function's argument counts agree with its
 * argument kinds.  And what the checker promises a later stage: after a
 * compile, every node that names a built-in leads to its row (dt_impl.h,
 * "Built-ins after checking").
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../check.h"
#include "dt_impl.h"

/*
 * Every id with the name its row must have: the enum's spelling, in capitals.
 * An id given twice does not compile; one left out is a NULL here.
 */
#define ID(x) [DT_B_##x] = #x
static const char *const spelled[DT_B_NBUILTINS] = {
	ID(ARG0),
	ID(ARG1),
	ID(ARG2),
	ID(ARG3),
	ID(ARG4),
	ID(ARG5),
	ID(ARG6),
	ID(ARG7),
	ID(ARG8),
	ID(ARG9),
	ID(ARGS),
	ID(CALLER),
	ID(CPU),
	ID(CURCPU),
	ID(CURLWPSINFO),
	ID(CURPSINFO),
	ID(__CURPSARGS),
	ID(CURTHREAD),
	ID(CWD),
	ID(EPID),
	ID(ERRNO),
	ID(EXECNAME),
	ID(GID),
	ID(ID),
	ID(IPL),
	ID(PID),
	ID(PPID),
	ID(PROBEFUNC),
	ID(PROBEMOD),
	ID(PROBENAME),
	ID(PROBEPROV),
	ID(ROOT),
	ID(STACKDEPTH),
	ID(TID),
	ID(TIMESTAMP),
	ID(UCALLER),
	ID(UID),
	ID(UREGS),
	ID(USTACKDEPTH),
	ID(VTIMESTAMP),
	ID(WALLTIMESTAMP),
	ID(ZONENAME),
	ID(ALLOCA),
	ID(BASENAME),
	ID(BCOPY),
	ID(CLEANPATH),
	ID(COPYIN),
	ID(COPYINSTR),
	ID(COPYINTO),
	ID(DIRNAME),
	ID(HTONL),
	ID(HTONLL),
	ID(HTONS),
	ID(INDEX),
	ID(INET_NTOA),
	ID(INET_NTOA6),
	ID(INET_NTOP),
	ID(JSON),
	ID(LLTOSTR),
	ID(NTOHL),
	ID(NTOHLL),
	ID(NTOHS),
	ID(PROGENYOF),
	ID(RAND),
	ID(RINDEX),
	ID(SPECULATION),
	ID(STRCHR),
	ID(STRJOIN),
	ID(STRLEN),
	ID(STRRCHR),
	ID(STRSTR),
	ID(STRTOK),
	ID(STRTOLL),
	ID(SUBSTR),
	ID(TOLOWER),
	ID(TOUPPER),
	ID(FUNC),
	ID(MOD),
	ID(SYM),
	ID(UADDR),
	ID(UFUNC),
	ID(UMOD),
	ID(USYM),
	ID(STACK),
	ID(USTACK),
	ID(JSTACK),
	ID(BREAKPOINT),
	ID(CHILL),
	ID(CLEAR),
	ID(COMMIT),
	ID(COPYOUT),
	ID(COPYOUTSTR),
	ID(DENORMALIZE),
	ID(DISCARD),
	ID(EXIT),
	ID(FREOPEN),
	ID(FTRUNCATE),
	ID(NORMALIZE),
	ID(PANIC),
	ID(PRINT),
	ID(PRINTA),
	ID(PRINTF),
	ID(RAISE),
	ID(SETOPT),
	ID(SPECULATE),
	ID(STOP),
	ID(SYSTEM),
	ID(TRACE),
	ID(TRACEMEM),
	ID(TRUNC),
	ID(AVG),
	ID(COUNT),
	ID(LLQUANTIZE),
	ID(LQUANTIZE),
	ID(MAX),
	ID(MIN),
	ID(QUANTIZE),
	ID(STDDEV),
	ID(SUM),
	ID(CHIP),
	ID(FDS),
	ID(LGRP),
	ID(PSETID),
	ID(DDI_PATHNAME),
	ID(GETF),
	ID(GETMAJOR),
	ID(GETMINOR),
	ID(MSGDSIZE),
	ID(MSGSIZE),
	ID(MUTEX_OWNED),
	ID(MUTEX_OWNER),
	ID(MUTEX_TYPE_ADAPTIVE),
	ID(MUTEX_TYPE_SPIN),
	ID(RW_ISWRITER),
	ID(RW_READ_HELD),
	ID(RW_WRITE_HELD),
};

/* Is the table whole (no row without a name)?  The other tests need it. */
static bool test_ids(void)
{
	bool whole = true;

	size_t n;
	const dt_builtin_t *t = dt_builtin_table(&n);

	CHECK_INT(n, DT_B_NBUILTINS);
	/* dense: row i carries id i and a name (a hole has no name, and id 0) */
	for (size_t i = 0; i < n; i++) {
		CHECK_INT(t[i].db_id, i);
		CHECK(t[i].db_name != NULL && t[i].db_name[0] != '\0');
		CHECK(dt_builtin_get((dt_bid_t)i) == &t[i]);
		whole = whole && t[i].db_name != NULL;
	}
	CHECK(dt_builtin_get(DT_B_NBUILTINS) == NULL);
	CHECK(dt_builtin_get((dt_bid_t)-1) == NULL);
	/* every id spelled above, and its row has the name it spells */
	for (size_t i = 0; i < n; i++) {
		bool ok = spelled[i] != NULL && t[i].db_name != NULL &&
			  strcasecmp(t[i].db_name, spelled[i]) == 0;

		if (!ok)
			fprintf(stderr, "id %zu (DT_B_%s): row named %s\n", i,
				spelled[i] != NULL ? spelled[i] : "?",
				t[i].db_name != NULL ? t[i].db_name : "(none)");
		CHECK(ok);
	}
	return whole;
}

static void test_names(void)
{
	size_t n;
	const dt_builtin_t *t = dt_builtin_table(&n);

	/* unique, and the name leads back to the row */
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(t[i].db_name, t[j].db_name) == 0) {
				fprintf(stderr, "%s: rows %zu and %zu\n", t[i].db_name, i, j);
				CHECK(false);
			}
		CHECK(dt_builtin_lookup(t[i].db_name) == &t[i]);
	}
	CHECK_INT(dt_builtin_lookup("substr")->db_id, DT_B_SUBSTR);
	CHECK_INT(dt_builtin_lookup("args")->db_id, DT_B_ARGS);
	CHECK(dt_builtin_lookup("nosuch") == NULL);
	CHECK(dt_builtin_lookup("") == NULL);
	CHECK(dt_builtin_lookup("SUBSTR") == NULL); /* D is case-sensitive */
}

/*
 * A function's prototype: db_args has a letter per argument, a '*' only
 * last (its letter repeats, none or more times), and the counts agree:
 * without '*', at most one argument per letter; with it, no limit.
 */
static void test_prototypes(void)
{
	size_t n;
	const dt_builtin_t *t = dt_builtin_table(&n);
	int checked = 0;

	for (size_t i = 0; i < n; i++) {
		const dt_builtin_t *b = &t[i];
		const char *a = b->db_args;
		size_t len;
		bool star, ok;

		if (b->db_kind == DB_VAR)
			continue;
		if (b->db_flags & DB_F_KERNEL) { /* refused by name: no prototype */
			CHECK(a == NULL);
			continue;
		}
		checked++;
		if (a == NULL) {
			fprintf(stderr, "%s: no db_args\n", b->db_name);
			CHECK(false);
			continue;
		}
		len = strlen(a);
		star = len > 0 && a[len - 1] == '*';
		ok = strspn(a, "ispaxgfc") == len - star && (!star || len >= 2) &&
		     b->db_minargs >= 0;
		if (star)
			ok = ok && b->db_maxargs == -1 && b->db_minargs >= (int)len - 2 &&
			     b->db_minargs <= (int)len - 1;
		else
			ok = ok && b->db_maxargs == (int)len && b->db_minargs <= b->db_maxargs;
		if (!ok)
			fprintf(stderr, "%s: args \"%s\", %d to %d\n", b->db_name, a, b->db_minargs,
				b->db_maxargs);
		CHECK(ok);
		/* aggregating functions have no value; the others have a type */
		CHECK((b->db_kind == DB_AGGFUNC) == (b->db_type == NULL));
	}
	CHECK_INT(checked, 46 + 24 + 9); /* subroutines, actions, aggregating functions */
}

/* ---------------------------------------------------------------- after checking */

typedef struct walk {
	int seen[DT_B_NBUILTINS]; /* nodes found linked, by id */
	int unlinked;
} walk_t;

static void walk(walk_t *w, const dt_node_t *n);

/* A node that names a built-in must lead to its row through dn_ident. */
static void visit(walk_t *w, const dt_node_t *n)
{
	const dt_builtin_t *b = NULL;

	if (n->dn_kind == DT_N_IDENT || n->dn_kind == DT_N_CALL)
		b = dt_builtin_lookup(n->dn_name);
	if (b != NULL) {
		if (n->dn_ident != NULL && n->dn_ident->di_func == b) {
			w->seen[b->db_id]++;
		} else {
			fprintf(stderr, "%s (node kind %d) does not lead to its row\n", n->dn_name,
				n->dn_kind);
			w->unlinked++;
		}
	}
	if (n->dn_kind == DT_N_AGG) {
		if (n->dn_ident != NULL && n->dn_ident->di_kind == DT_IDENT_AGG &&
		    n->dn_ident->di_func != NULL && n->dn_ident->di_func->db_kind == DB_AGGFUNC)
			w->seen[n->dn_ident->di_func->db_id]++;
		else
			w->unlinked++;
	}
	walk(w, n->dn_left);
	walk(w, n->dn_right);
	walk(w, n->dn_cond);
	walk(w, n->dn_args);
}

static void walk(walk_t *w, const dt_node_t *n)
{
	for (; n != NULL; n = n->dn_next)
		visit(w, n);
}

static void test_checked_nodes(void)
{
	static const char src[] = "provider myp {\n"
				  "	probe p(int, char *);\n"
				  "};\n"
				  "inline pid_t mypid = pid;\n"
				  "myp*:::p\n"
				  "/pid != 0/\n"
				  "{\n"
				  "	trace(args[0]);\n"
				  "	x = uregs[0];\n"
				  "	y = curpsinfo->pr_pid;\n"
				  "	z = mypid;\n"
				  "	@c[execname, ustack()] = count();\n"
				  "	@q = lquantize(arg0, 0, 10, 1);\n"
				  "	printf(\"%s %d\\n\", copyinstr(arg1), timestamp);\n"
				  "	printa(@c);\n"
				  "	trunc(@c, 5);\n"
				  "}\n";
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;
	walk_t w = { { 0 }, 0 };

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	/* the built-in curpsinfo, not procfs.d's inline (the D library) */
	CHECK_INT(dtrace_setopt(dtp, "nolibs", NULL), 0);
	/* the front-end's tree: uregs[] and ustack() have no code generation yet */
	pgp = dtrace_program_strcompile(dtp, src, "t.d", DT_C_FRONTEND, 0, NULL);
	if (pgp == NULL)
		fprintf(stderr, "compile: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
	CHECK(pgp != NULL);
	if (pgp != NULL)
		walk(&w, pgp->dp_clauses);
	CHECK_INT(w.unlinked, 0);
	/* each kind of node the header lists was there to see */
	CHECK_INT(w.seen[DT_B_ARGS], 1);      /* args[0]: the IDENT under the INDEX */
	CHECK_INT(w.seen[DT_B_UREGS], 1);     /* uregs[0] */
	CHECK_INT(w.seen[DT_B_CURPSINFO], 1); /* curpsinfo->pr_pid */
	CHECK_INT(w.seen[DT_B_PID], 3);	      /* the inline, its use, the predicate */
	CHECK_INT(w.seen[DT_B_TRACE], 1);     /* an action */
	CHECK_INT(w.seen[DT_B_COPYINSTR], 1); /* a subroutine as an argument */
	CHECK_INT(w.seen[DT_B_USTACK], 1);    /* a stack as a key */
	CHECK_INT(w.seen[DT_B_COUNT], 4);     /* count() and @c three times */
	CHECK_INT(w.seen[DT_B_LQUANTIZE], 2); /* lquantize() and @q */
	CHECK_INT(w.seen[DT_B_PRINTA], 1);
	CHECK_INT(w.seen[DT_B_TRUNC], 1);
	dtrace_close(dtp);
}

int main(void)
{
	if (test_ids()) { /* a hole would crash the rest, name lookups first */
		test_names();
		test_prototypes();
		test_checked_nodes();
	}
	return CHECK_DONE();
}
