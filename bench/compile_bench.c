/*
 * compile_bench.c -- how long compiling a generated 1,000-clause script
 * takes, in-process.
 *
 *   compile_bench [--front-end] [clauses [repetitions]]   (default 1000 10)
 *   compile_bench --emit N > script.d                    write the script and exit
 *
 * Each clause has two probe descriptions (gen*:::workK and tick-Ks, K
 * from 1 to 60: one USDT description no longer names all the clauses,
 * which would be more branches than one program takes, refused at compile
 * time), a predicate, a thread-local and an
 * associative-array assignment, an aggregation with two keys, a string
 * comparison and a printf: the mix of a real script.  The library is
 * called in-process (dtrace_program_strcompile), best and median of the
 * repetitions; bench/run_compile.sh also times the dtrace command on the
 * same script and bpftrace on an equivalent one.
 *
 * Compiling is the front-end (lexer, parser, checker) and, since commit
 * c7f3cdb, code generation: each clause becomes a fragment there, no longer
 * in dtrace_go.  --front-end passes DT_C_FRONTEND (dt_impl.h), which stops
 * after the checker, as compiling did before that commit: the difference
 * between the two figures is code generation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dt_impl.h" /* DT_C_FRONTEND */
#include "dtrace.h"

static char *script(int n)
{
	size_t cap = (size_t)n * 512 + 1024, len = 0;
	char *s = malloc(cap);

	if (s == NULL)
		return NULL;
	len += (size_t)snprintf(s + len, cap - len,
				"#pragma D option quiet\n"
				"provider gen {\n");
	for (int i = 0; i < 60; i++)
		len += (size_t)snprintf(s + len, cap - len,
					"\tprobe work%d(int, char *, uint64_t);\n", i + 1);
	len += (size_t)snprintf(s + len, cap - len, "};\nself uint64_t t[int];\n");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(
		    s + len, cap - len,
		    "gen*:::work%d,\ntick-%ds\n/arg0 > %d && (self->t[%d] == 0 || execname != "
		    "\"x%d\")/\n"
		    "{\n\tself->t[%d] = timestamp;\n\tlast[pid, %d] = arg2 * %d + (arg1 & 0xff);\n"
		    "\t@c%d[execname, arg0 %% 16] = count();\n\t@q%d = quantize(arg2 >> %d);\n"
		    "\tprintf(\"%%s %%d %%x %d\\n\", execname, pid, (int)arg2);\n}\n\n",
		    i % 60 + 1, i % 60 + 1, i, i, i, i, i, i + 1, i, i, i % 8, i);
	return s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = 1000, reps = 10, err;
	unsigned cflags = 0;
	double t[100];
	char *s;

	if (argc > 2 && strcmp(argv[1], "--emit") == 0) {
		if ((s = script(atoi(argv[2]))) == NULL)
			return 1;
		fputs(s, stdout);
		free(s);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--front-end") == 0) {
		cflags = DT_C_FRONTEND;
		argc--;
		argv++;
	}
	if (argc > 1)
		n = atoi(argv[1]);
	if (argc > 2)
		reps = atoi(argv[2]);
	if (n <= 0 || reps <= 0 || reps > 100 || (s = script(n)) == NULL) {
		fprintf(stderr,
			"usage: compile_bench [--front-end] [clauses [repetitions (1-100)]]\n");
		return 2;
	}
	for (int r = 0; r < reps; r++) {
		dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);
		double t0 = now();

		if (dtp == NULL ||
		    dtrace_program_strcompile(dtp, s, "gen.d", cflags, 0, NULL) == NULL) {
			fprintf(stderr, "compile failed: %s\n",
				dtp ? dtrace_errmsg(dtp, dtrace_errno(dtp)) : "dtrace_open");
			return 1;
		}
		t[r] = now() - t0;
		dtrace_close(dtp);
	}
	qsort(t, (size_t)reps, sizeof(t[0]), cmp);
	printf("%s, %d clauses (%zu bytes), %d runs in-process:\n",
	       cflags ? "D front-end alone" : "compile (front-end and code generation)", n,
	       strlen(s), reps);
	printf("  best %.2f ms, median %.2f ms, %.1f us per clause (target: under 100 ms)\n", t[0],
	       t[reps / 2], t[reps / 2] * 1000 / n);
	free(s);
	return 0;
}
