/*
 * gen.c -- dtrace -h and -G through an installed libdtrace's public
 * functions (dtrace_gen.h):
 *
 *   gen PROVIDER.d HEADER OBJECT [PROBE-OBJECTS...]
 *
 * writes what `dtrace -h -s PROVIDER.d -o HEADER` and `dtrace -G -s
 * PROVIDER.d -o OBJECT PROBE-OBJECTS...` write.
 */
#include <stdio.h>

#include <dtrace.h>
#include <dtrace_gen.h>

int main(int argc, char *argv[])
{
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	FILE *in, *out;
	int err, rc = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: gen PROVIDER.d HEADER OBJECT [PROBE-OBJECTS...]\n");
		return 2;
	}
	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		fprintf(stderr, "gen: dtrace_open: %s\n", dtrace_errmsg(NULL, err));
		return 1;
	}
	if ((in = fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		goto out;
	}
	pgp = dtrace_program_fcompile(dtp, in, argv[1], 0, 0, NULL);
	fclose(in);
	if (pgp == NULL) {
		fprintf(stderr, "gen: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		goto out;
	}
	/* misuse is an error through the handle, not a crash */
	if (dtrace_program_link(dtp, pgp, 0, NULL, 0, NULL) == 0) {
		fprintf(stderr, "gen: dtrace_program_link accepted no file\n");
		goto out;
	}
	fprintf(stderr, "gen: no file: %d %s\n", dtrace_errno(dtp),
		dtrace_errmsg(dtp, dtrace_errno(dtp)));
	if ((out = fopen(argv[2], "w")) == NULL) {
		perror(argv[2]);
		goto out;
	}
	if (dtrace_program_header(dtp, out, argv[2]) != 0) {
		fprintf(stderr, "gen: header: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		fclose(out);
		goto out;
	}
	if (fclose(out) != 0) {
		perror(argv[2]);
		goto out;
	}
	if (dtrace_program_link(dtp, NULL, 0, argv[3], argc - 4, argv + 4) != 0) {
		fprintf(stderr, "gen: link: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		goto out;
	}
	rc = 0;
out:
	dtrace_close(dtp);
	return rc;
}
