/*
 * dtrace.c -- the dtrace command: argument parsing and printing only;
 * everything else goes through the public libdtrace and dtrace-gen APIs.
 *
 * Today it compiles D programs (-s, -e) and builds static probes
 * (-h header, -G object) from provider definitions.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtrace.h"
#include "dtrace_gen.h"

#ifndef DTRACE_TOOL_VERSION
#define DTRACE_TOOL_VERSION "0.1"
#endif

static const char *g_pname = "dtrace";

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: %s [-CeGhlV] [-I dir] [-D name[=def]] [-U name] [-o output]\n"
		"\t[-x opt[=val]] [-n program] [-s script] [-P provider] [-m module]\n"
		"\t[-f function] [arg|object ...]\n"
		"\n"
		"\t-C  run the C preprocessor over the scripts\n"
		"\t-D  define a preprocessor symbol (with -C)\n"
		"\t-e  exit after compiling the scripts\n"
		"\t-G  write an ELF object with the probes of the provider definitions\n"
		"\t-h  write a C/C++ header for the provider definitions\n"
		"\t-f  with -l: the probes of a function\n"
		"\t-I  add a preprocessor include directory (with -C)\n"
		"\t-l  list probes (all, or those that -n, -P, -m or -f describe)\n"
		"\t-m  with -l: the probes of a module\n"
		"\t-n  compile a program given on the command line\n"
		"\t-o  output file (default: script name with .h or .o)\n"
		"\t-P  with -l: the probes of a provider\n"
		"\t-s  compile a D program file\n"
		"\t-U  undefine a preprocessor symbol (with -C)\n"
		"\t-V  print the version and exit\n"
		"\t-x  set an option (errtags)\n",
		g_pname);
}

static void print_diag(dtrace_hdl_t *dtp)
{
	const dtrace_diag_t *dg = dtrace_lastdiag(dtp);

	if (dg == NULL)
		return;
	fprintf(stderr, "    at %s:%u:%u\n", dg->dtdg_file, dg->dtdg_line, dg->dtdg_column);
	if (dg->dtdg_source[0] == '\0')
		return;
	fprintf(stderr, "    %s\n    ", dg->dtdg_source);
	/* the caret keeps the line's tabs so that it lines up */
	for (unsigned i = 0; i + 1 < dg->dtdg_column && dg->dtdg_source[i] != '\0'; i++)
		fputc(dg->dtdg_source[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

static int list_probe(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	(void)dtp;
	(void)arg;
	printf("%5u %10s %17s %33s %s\n", (unsigned)pdp->dtpd_id, pdp->dtpd_provider,
	       pdp->dtpd_mod, pdp->dtpd_func, pdp->dtpd_name);
	return 0;
}

/*
 * dtrace -l: the header, then the probes of each description (every probe
 * with none), as dtrace(1) prints them.  A description that matches
 * nothing is an error, reported after the others are listed.
 */
static int list_probes(dtrace_hdl_t *dtp, const char **descs, const int *kinds, int n)
{
	static const char *const opt[] = { "-P", "-m", "-f" };
	dtrace_probedesc_t pd;
	int status = 0;

	printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	if (n == 0 && dtrace_probe_iter(dtp, NULL, list_probe, NULL) != 0) {
		fprintf(stderr, "%s: failed to list probes: %s\n", g_pname,
			dtrace_errmsg(dtp, dtrace_errno(dtp)));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		/* -n: fields fill from the right, so one field names the probe */
		if (dtrace_str2desc(dtp, kinds[i], descs[i], &pd) != 0 ||
		    dtrace_probe_iter(dtp, &pd, list_probe, NULL) != 0) {
			fflush(stdout);
			fprintf(stderr, "%s: failed to match %s%s: %s\n", g_pname,
				kinds[i] == DTRACE_PROBESPEC_NONE ? "" : opt[kinds[i]],
				descs[i], dtrace_errmsg(dtp, dtrace_errno(dtp)));
			status = 1;
		}
	}
	return status;
}

/*
 * Write the header to a temporary file renamed over path, so that a failed
 * run leaves nothing half-written and never removes what path names; a
 * path that is not a regular file (/dev/stdout, a FIFO) is written in place.
 */
static int write_header(dtrace_hdl_t *dtp, const char *path)
{
	struct stat st;
	char *tmp = NULL;
	FILE *out = NULL;
	int fd, rc = 1;
	bool direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);

	if (direct) {
		out = fopen(path, "w");
	} else if ((tmp = malloc(strlen(path) + 32)) != NULL) {
		sprintf(tmp, "%s.%d.tmp", path, (int)getpid());
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 && (out = fdopen(fd, "w")) == NULL)
			close(fd);
	}
	if (out == NULL) {
		fprintf(stderr, "%s: failed to create header file %s: %s\n", g_pname, path,
			strerror(errno));
		goto out;
	}
	if (dtrace_program_header(dtp, out, path) != 0) {
		fprintf(stderr, "%s: failed to create header file %s: %s\n", g_pname, path,
			dtrace_errmsg(dtp, dtrace_errno(dtp)));
		fclose(out);
		goto out;
	}
	if (fclose(out) != 0 || (!direct && rename(tmp, path) != 0)) {
		fprintf(stderr, "%s: failed to create header file %s: %s\n", g_pname, path,
			strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (tmp != NULL && rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* The default output: the first script's base name with .d replaced by ext. */
static char *default_output(const char *script, const char *ext)
{
	const char *base = strrchr(script, '/');
	size_t n;
	char *out;

	base = base != NULL ? base + 1 : script;
	n = strlen(base);
	if (n > 2 && strcmp(base + n - 2, ".d") == 0)
		n -= 2;
	out = malloc(n + strlen(ext) + 1);
	if (out != NULL) {
		memcpy(out, base, n);
		strcpy(out + n, ext);
	}
	return out;
}

int main(int argc, char *argv[])
{
	enum { MODE_NONE, MODE_HEADER, MODE_LINK } mode = MODE_NONE;
	const char *output = NULL, **scripts, **descs;
	int *kinds = NULL, ndescs = 0;
	bool list = false;
	unsigned cflags = 0;
	bool compile_only = false;
	dtrace_prog_t *last = NULL;
	dtrace_hdl_t *dtp;
	int nscripts = 0, c, err, status = 0, margc = 0;
	bool *isprog = NULL;
	char **margv = NULL, *saved0 = NULL;
	char *defout = NULL;

	if (argv[0] != NULL && strrchr(argv[0], '/') != NULL)
		g_pname = strrchr(argv[0], '/') + 1;
	if ((scripts = calloc((size_t)argc + 1, sizeof(char *))) == NULL ||
	    (isprog = calloc((size_t)argc + 1, sizeof(bool))) == NULL ||
	    (descs = calloc((size_t)argc + 1, sizeof(char *))) == NULL ||
	    (kinds = calloc((size_t)argc + 1, sizeof(int))) == NULL) {
		fprintf(stderr, "%s: out of memory\n", g_pname);
		return 1;
	}
	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		fprintf(stderr, "%s: failed to initialize dtrace: %s\n", g_pname,
			dtrace_errmsg(NULL, err));
		free(scripts);
		return 1;
	}

	/* "+": stop at the first operand, as dtrace(1) treats what follows -s */
	while ((c = getopt(argc, argv, "+CD:ef:GhI:lm:n:o:P:s:U:Vx:")) != -1) {
		switch (c) {
		case 'C':
			cflags |= DTRACE_C_CPP;
			break;
		case 'D':
		case 'I':
		case 'U':
			if (dtrace_setopt(dtp,
					  c == 'D'   ? "define"
					  : c == 'I' ? "incdir"
						     : "undef",
					  optarg) != 0) {
				fprintf(stderr, "%s: failed to set -%c %s: %s\n", g_pname, c,
					optarg, dtrace_errmsg(dtp, dtrace_errno(dtp)));
				status = 2;
				goto done;
			}
			break;
		case 'e':
			compile_only = true;
			break;
		case 'G':
			mode = MODE_LINK;
			break;
		case 'h':
			mode = MODE_HEADER;
			break;
		case 'o':
			output = optarg;
			break;
		case 's':
			scripts[nscripts++] = optarg;
			break;
		case 'n':
			/* a program on the command line: marked, compiled in order */
			scripts[nscripts++] = optarg;
			isprog[nscripts - 1] = true;
			descs[ndescs] = optarg; /* or, with -l, a probe description */
			kinds[ndescs++] = DTRACE_PROBESPEC_NONE;
			break;
		case 'P':
		case 'm':
		case 'f':
			descs[ndescs] = optarg;
			kinds[ndescs++] = c == 'P'   ? DTRACE_PROBESPEC_PROVIDER
					  : c == 'm' ? DTRACE_PROBESPEC_MOD
						     : DTRACE_PROBESPEC_FUNC;
			break;
		case 'l':
			list = true;
			break;
		case 'V':
			printf("dtrace: Linux userspace DTrace %s (D interface %d)\n",
			       DTRACE_TOOL_VERSION, DTRACE_VERSION);
			status = 0;
			goto done;
		case 'x': {
			char *eq = strchr(optarg, '=');

			if (eq != NULL)
				*eq++ = '\0';
			if (dtrace_setopt(dtp, optarg, eq) != 0) {
				fprintf(stderr, "%s: failed to set -x %s: %s\n", g_pname, optarg,
					dtrace_errmsg(dtp, dtrace_errno(dtp)));
				status = 2;
				goto done;
			}
			break;
		}
		default:
			usage(stderr);
			status = 2;
			goto done;
		}
	}
	int nfiles = 0;

	for (int i = 0; i < nscripts; i++)
		nfiles += !isprog[i];
	if (list && mode == MODE_NONE && nfiles == 0) {
		status = list_probes(dtp, descs, kinds, ndescs);
		goto done;
	}
	if (list) {
		fprintf(stderr, "%s: -l lists the probes of -n, -P, -m and -f descriptions; "
			"listing the probes of a script (-s) or with -h/-G is not available yet\n",
			g_pname);
		status = 2;
		goto done;
	}
	if (ndescs > nscripts - nfiles) {
		fprintf(stderr, "%s: -P, -m and -f describe probes for -l; enabling them "
			"is not available yet\n", g_pname);
		status = 2;
		goto done;
	}
	if (nscripts == 0) {
		fprintf(stderr, "%s: no program specified (use -s or -n)\n", g_pname);
		usage(stderr);
		status = 2;
		goto done;
	}
	/* after the options: objects for -G, else the macro arguments $1..$n */
	if (mode != MODE_LINK) {
		margv = argv + optind - 1;
		margc = argc - optind + 1;
	}

	for (int i = 0; i < nscripts; i++) {
		FILE *fp;

		if (isprog[i]) {
			last = dtrace_program_strcompile(dtp, scripts[i], "-n", cflags, margc, margv);
			if (last == NULL) {
				fprintf(stderr, "%s: invalid probe specifier %s: %s\n", g_pname,
					scripts[i], dtrace_errmsg(dtp, dtrace_errno(dtp)));
				print_diag(dtp);
				status = 1;
				goto done;
			}
			continue;
		}
		if ((fp = fopen(scripts[i], "r")) == NULL) {
			fprintf(stderr, "%s: failed to open %s: %s\n", g_pname, scripts[i],
				strerror(errno));
			status = 1;
			goto done;
		}
		if (margv != NULL) { /* $0 is the script's name */
			saved0 = margv[0];
			margv[0] = (char *)scripts[i];
		}
		last = dtrace_program_fcompile(dtp, fp, scripts[i], cflags, margc, margv);
		if (margv != NULL)
			margv[0] = saved0;
		fclose(fp);
		if (last == NULL) {
			fprintf(stderr, "%s: failed to compile script %s: %s\n", g_pname,
				scripts[i], dtrace_errmsg(dtp, dtrace_errno(dtp)));
			print_diag(dtp);
			status = 1;
			goto done;
		}
	}
	if (compile_only && mode == MODE_NONE)
		goto done;

	if (mode == MODE_HEADER) {
		if (output == NULL)
			output = defout = default_output(scripts[0], ".h");
		status = output != NULL ? write_header(dtp, output) : 1;
	} else if (mode == MODE_LINK) {
		if (output == NULL)
			output = defout = default_output(scripts[0], ".o");
		if (output == NULL ||
		    dtrace_program_link(dtp, NULL, 0, output, argc - optind, argv + optind) != 0) {
			fprintf(stderr, "%s: failed to link script %s: %s\n", g_pname, scripts[0],
				dtrace_errmsg(dtp, dtrace_errno(dtp)));
			status = 1;
		}
	} else {
		fprintf(stderr, "%s: tracing is not available yet: use -h, -G or -e with -s\n",
			g_pname);
		status = 2;
	}
done:
	free(defout);
	free(scripts);
	free(isprog);
	free(descs);
	free(kinds);
	dtrace_close(dtp);
	return status;
}
