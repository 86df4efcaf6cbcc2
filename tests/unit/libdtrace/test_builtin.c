/*
 * test_builtin.c -- the table of D's built-ins (dt_builtin.c): each id has
 * the row at its index, named as the id spells it; names are unique and
 * found again by name; each function's argument counts agree with its
 * argument kinds.
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
	CHECK_INT(checked, 44 + 24 + 9); /* subroutines, actions, aggregating functions */
}

int main(void)
{
	if (test_ids()) { /* a hole would crash the rest, name lookups first */
		test_names();
		test_prototypes();
	}
	return CHECK_DONE();
}
