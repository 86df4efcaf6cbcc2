/*
 * loadcheck -- does a D program that compiles also load?
 *
 *   loadcheck [-C] [-q] [-x opt[=val]]... FILE [macro args...]
 *
 * Compiles FILE as dtrace -Z would (descriptions may match nothing) and
 * then loads, without attaching, what dtrace_go would load and every
 * clause alone on a stand-in BEGIN, profile, USDT and tp_btf probe (dt_load_verify).
 * $target is this process.  Exit status: 0 it loads; 2 it does not
 * compile (not this tool's question); 1 it compiles and fails to load (the
 * message on stderr); 3 this kernel refuses what it needs, as dtrace_go
 * does before loading (copyout on a kernel in lockdown); 77 no privilege
 * to load BPF.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dt_run.h"

int main(int argc, char **argv)
{
	unsigned cflags = DTRACE_C_ZDEFS;
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	FILE *fp;
	int c, err, rc;

	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		fprintf(stderr, "loadcheck: cannot open: %d\n", err);
		return 1;
	}
	while ((c = getopt(argc, argv, "+Cqx:")) != -1) {
		char *eq;

		switch (c) {
		case 'C': cflags |= DTRACE_C_CPP; break;
		case 'q': (void)dtrace_setopt(dtp, "quiet", NULL); break;
		case 'x':
			if ((eq = strchr(optarg, '=')) != NULL)
				*eq++ = '\0';
			if (dtrace_setopt(dtp, optarg, eq) != 0) {
				fprintf(stderr, "loadcheck: -x %s: %s\n", optarg,
					dtrace_errmsg(dtp, dtrace_errno(dtp)));
				return 2;
			}
			break;
		default: return 2;
		}
	}
	if (optind >= argc || (fp = fopen(argv[optind], "r")) == NULL) {
		fprintf(stderr, "usage: loadcheck [-C] [-q] [-x opt=val]... FILE [args...]\n");
		return 2;
	}
	dtp->dt_target = getpid(); /* $target */
	(void)dtrace_setopt(dtp, "zdefs", NULL);
	pgp = dtrace_program_fcompile(dtp, fp, argv[optind], cflags, argc - optind, argv + optind);
	fclose(fp);
	if (pgp == NULL) {
		fprintf(stderr, "%s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return 2;
	}
	if (pgp->dp_nstmts == 0) { /* declarations only: nothing to load */
		dtrace_close(dtp);
		return 0;
	}
	rc = dtrace_program_exec(dtp, pgp, NULL) == 0 && dt_load_verify(dtp) == 0 ? 0 : 1;
	if (rc != 0) {
		fprintf(stderr, "%s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		if (dtrace_errno(dtp) == EDT_NOPRIV)
			rc = 77;
		else if (dtrace_errno(dtp) == EDT_WRITEUSER)
			rc = 3;
	}
	dtrace_close(dtp);
	return rc;
}
