/*
 * dtrace.c -- the dtrace command: argument parsing and printing only;
 * everything else goes through the public libdtrace and dtrace-gen APIs.
 *
 * It traces (-n, -s, -P, -m, -f with -c or -p), lists probes (-l),
 * compiles D programs (-e) and builds static probes (-h header, -G object)
 * from provider definitions.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dtrace.h"
#include "dtrace_gen.h"

#ifndef DTRACE_TOOL_VERSION
#define DTRACE_TOOL_VERSION "0.1"
#endif

static const char *g_pname = "dtrace";

static void usage(FILE *fp)
{
	fprintf(
	    fp,
	    "Usage: %s [-CeFGhlqSVwZ] [-b bufsz] [-I dir] [-L dir] [-D name[=def]] [-U name] [-o output]\n"
	    "\t[-x opt[=val]] [-n program] [-s script] [-P provider] [-m module]\n"
	    "\t[-f function] [-c cmd] [-p pid] [arg|object ...]\n"
	    "\n"
	    "\t-b  set trace buffer size (-x bufsize)\n"
	    "\t-c  run a command and trace it ($target), exit when it exits\n"
	    "\t-C  run the C preprocessor over the scripts\n"
	    "\t-D  define a preprocessor symbol (with -C)\n"
	    "\t-e  exit after compiling the scripts\n"
	    "\t-F  indent the output by function entry and return (flowindent)\n"
	    "\t-G  write an ELF object with the probes of the provider definitions\n"
	    "\t-h  write a C/C++ header for the provider definitions\n"
	    "\t-f  the probes of a function (to enable, or with -l to list)\n"
	    "\t-I  add a preprocessor include directory (with -C)\n"
	    "\t-L  add a D library directory, searched before the default one\n"
	    "\t-l  list probes (all, or those that -n, -P, -m or -f describe)\n"
	    "\t-m  the probes of a module (to enable, or with -l to list)\n"
	    "\t-n  compile a program given on the command line\n"
	    "\t-o  output file (traced data, or -h/-G output: default script name .h/.o)\n"
	    "\t-p  trace a running process ($target), exit when it exits\n"
	    "\t-P  the probes of a provider (to enable, or with -l to list)\n"
	    "\t-q  quiet: print only what the program prints\n"
	    "\t-s  compile a D program file\n"
	    "\t-S  print each clause's compiled BPF code (to stderr)\n"
	    "\t-U  undefine a preprocessor symbol (with -C)\n"
	    "\t-V  print the version and exit\n"
	    "\t-w  permit destructive actions\n"
	    "\t-x  set an option (bufsize, switchrate, strsize, quiet, dynvarsize,\n"
	    "\t    oformat=json for one JSON object per line, oformat=folded for\n"
	    "\t    flame graphs, ...)\n"
	    "\t-Z  permit descriptions that match no probes\n",
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

static void print_attr(const char *title, dtrace_attribute_t a)
{
	printf("\n\t%s\n", title);
	printf("\t\tIdentifier Names: %s\n", dtrace_stability_name(a.dtat_name));
	printf("\t\tData Semantics:   %s\n", dtrace_stability_name(a.dtat_data));
	printf("\t\tDependency Class: %s\n", dtrace_class_name(a.dtat_class));
}

/* dtrace -l -v: the probe's attributes and argument types, as illumos' print_probe_info */
static void print_probe_info(const dtrace_probeinfo_t *p)
{
	print_attr("Probe Description Attributes", p->dtp_attr);
	print_attr("Argument Attributes", p->dtp_arga);
	printf("\n\tArgument Types\n");
	for (int i = 0; i < p->dtp_argc; i++)
		printf("\t\targs[%d]: %s\n", i, p->dtp_argv[i]);
	if (p->dtp_argc == 0)
		printf("\t\tNone\n");
	printf("\n");
}

static int list_probe(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	const bool *verbose = arg;
	dtrace_probeinfo_t p;

	printf("%5u %10s %17s %33s %s\n", (unsigned)pdp->dtpd_id, pdp->dtpd_provider, pdp->dtpd_mod,
	       pdp->dtpd_func, pdp->dtpd_name);
	if (verbose != NULL && *verbose && dtrace_probe_info(dtp, pdp, &p) == 0)
		print_probe_info(&p);
	return 0;
}

/* Copy desc into buf with each "$target" replaced by the pid (when there is one). */
static void expand_target(const char *desc, int target, char *buf, size_t size)
{
	size_t o = 0;

	for (const char *c = desc; *c != '\0' && o + 1 < size;) {
		if (target > 0 && strncmp(c, "$target", 7) == 0) {
			int w = snprintf(buf + o, size - o, "%d", target);

			o += w > 0 && (size_t)w < size - o ? (size_t)w : 0;
			c += 7;
		} else {
			buf[o++] = *c++;
		}
	}
	buf[o] = '\0';
}

/*
 * dtrace -l: the header, then the probes of each description (every probe
 * with none), as dtrace(1) prints them.  A description that matches
 * nothing is an error, reported after the others are listed.
 */
static int list_probes(dtrace_hdl_t *dtp, const char **descs, const int *kinds, int n, int target,
		       bool verbose)
{
	static const char *const opt[] = { "-P", "-m", "-f" };
	dtrace_probedesc_t pd;
	int status = 0;

	printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	if (n == 0 && dtrace_probe_iter(dtp, NULL, list_probe, &verbose) != 0) {
		fprintf(stderr, "%s: failed to list probes: %s\n", g_pname,
			dtrace_errmsg(dtp, dtrace_errno(dtp)));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char desc[DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN +
			  DTRACE_NAMELEN + 16];

		/* $target (with -c or -p) is the target's pid, as in a program */
		expand_target(descs[i], target, desc, sizeof(desc));
		/* -n: fields fill from the right, so one field names the probe */
		if (dtrace_str2desc(dtp, kinds[i], desc, &pd) != 0 ||
		    dtrace_probe_iter(dtp, &pd, list_probe, &verbose) != 0) {
			fflush(stdout);
			/* a provider that cannot work here says why, in one line */
			if (dtrace_errno(dtp) == EDT_PROVUNAVAIL)
				fprintf(stderr, "%s: %s\n", g_pname,
					dtrace_errmsg(dtp, dtrace_errno(dtp)));
			else
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

static volatile sig_atomic_t g_intr, g_newline, g_impatient;

static void intr(int sig)
{
	if (g_intr)
		g_impatient = 1;
	g_intr = sig; /* which one, for a mode that ends by it (end_by_signal) */
	g_newline = 1;
}

/*
 * SIGINT and SIGTERM end tracing as illumos dtrace(1)'s intr() does, but
 * from the first instruction of main on (illumos installs them only once
 * tracing runs, so that a signal while it compiles or enables kills it with
 * the default action, leaving its -c process behind): every step checks
 * g_intr and stops cleanly.  SIGHUP too (a closed terminal), unless it is
 * ignored (nohup).  No SA_RESTART, as illumos: a script read from a FIFO
 * is interrupted; the library retries its waits.
 */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = intr;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * A mode that does not trace (-e, -l, -h, -G) has no clean end to reach
 * when interrupted: once everything is released, it dies by the signal, as
 * it would have without a handler, so that a shell sees the interruption.
 */
static void end_by_signal(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * 0, or the error of a failed write to fp (flushed now): illumos oprintf()
 * ends dtrace(1) with "failed to write to FILE" and the error, FILE being
 * -o's name or <stdout>; an interrupted write is not a failure there.
 */
static int write_error(FILE *fp)
{
	int err;

	errno = 0;
	if (fflush(fp) != EOF && !ferror(fp))
		return 0;
	err = errno != 0 ? errno : EIO;
	clearerr(fp);
	return err == EINTR ? 0 : err;
}

static void report_write_error(const char *output, int err)
{
	fprintf(stderr, "%s: failed to write to %s: %s\n", g_pname,
		output != NULL ? output : "<stdout>", strerror(err));
}

/* What a program's notice calls it: -n text up to its first '{', '/' or ';'. */
static void notice_matched(const char *kind, const char *name, unsigned n, bool isprog)
{
	int len = (int)strlen(name);

	if (isprog)
		len = (int)strcspn(name, "{/;");
	fprintf(stderr, "%s: %s '%.*s' matched %u probe%s\n", g_pname, kind, len, name, n,
		n == 1 ? "" : "s");
}

/*
 * Trace until exit(), the target's exit, or a signal, as dtrace(1)'s
 * main loop does; returns the exit status.
 */
static int trace_loop(dtrace_hdl_t *dtp, FILE *out, const char *output, bool quiet, bool target)
{
	bool done = false, reported = false, first = true;
	int st, err;

	do {
		/* records that came while enabling (BEGIN's) are read at once */
		if (!g_intr && !done && !first)
			dtrace_sleep(dtp);
		first = false;
		if (g_newline) {
			if (!dtrace_oformat(dtp))
				fputc('\n', out);
			g_newline = 0;
		}
		if (target && !reported && dtrace_proc_exited(dtp, &st)) {
			reported = true;
			if (!quiet) {
				if (st != -1 && WIFSIGNALED(st))
					fprintf(stderr, "%s: pid %d terminated by %s\n", g_pname,
						dtrace_proc_target(dtp), strsignal(WTERMSIG(st)));
				else if (st != -1 && WEXITSTATUS(st) != 0)
					fprintf(stderr, "%s: pid %d exited with status %d\n",
						g_pname, dtrace_proc_target(dtp), WEXITSTATUS(st));
				else
					fprintf(stderr, "%s: pid %d has exited\n", g_pname,
						dtrace_proc_target(dtp));
			}
		}
		if (done || g_intr || reported) {
			done = true;
			dtrace_stop(dtp);
		}
		switch (dtrace_work(dtp, out)) {
		case DTRACE_WORKSTATUS_DONE: done = true; break;
		case DTRACE_WORKSTATUS_OKAY: break;
		default:
			if (ferror(out)) { /* dtrace_work's errno is the write's */
				clearerr(out);
				report_write_error(output, dtrace_errno(dtp));
				return 1;
			}
			fprintf(stderr, "%s: processing aborted: %s\n", g_pname,
				dtrace_errmsg(dtp, dtrace_errno(dtp)));
			return 1;
		}
		if ((err = write_error(out)) != 0) {
			report_write_error(output, err);
			return 1;
		}
	} while (!done && !g_impatient);
	if (!dtrace_oformat(dtp))
		fputc('\n', out);
	if (!g_impatient && dtrace_aggregate_print(dtp, out) != 0) {
		if (ferror(out)) { /* the write's errno */
			clearerr(out);
			report_write_error(output, dtrace_errno(dtp));
			return 1;
		}
		fprintf(stderr, "%s: failed to print aggregations: %s\n", g_pname,
			dtrace_errmsg(dtp, dtrace_errno(dtp)));
	}
	if ((err = write_error(out)) != 0) {
		report_write_error(output, err);
		return 1;
	}
	return dtrace_status(dtp) == DTRACE_STATUS_EXITED ? dtrace_exit_value(dtp) : 0;
}

/* Split -c's command on blanks, as dtrace(1) does (no quoting). */
static char **split_command(const char *cmd)
{
	size_t n = strlen(cmd);
	char **v = calloc(n / 2 + 2, sizeof(char *)), *copy = strdup(cmd), *save = NULL;
	int i = 0;

	if (v == NULL || copy == NULL) {
		free(v);
		free(copy);
		return NULL;
	}
	for (char *t = strtok_r(copy, "\f\n\r\t\v ", &save); t != NULL;
	     t = strtok_r(NULL, "\f\n\r\t\v ", &save))
		v[i++] = t;
	if (i == 0) {
		free(v);
		free(copy);
		return NULL;
	}
	return v;
}

/* Start the -c command stopped at its entry point, or grab the -p process: 0, else the exit status. */
static int start_target(dtrace_hdl_t *dtp, const char *cmd, const char *grab, char ***cmdvp)
{
	if (cmd != NULL &&
	    ((*cmdvp = split_command(cmd)) == NULL || dtrace_proc_create(dtp, *cmdvp) < 0)) {
		if (g_intr) /* the failure is the interruption's: main ends cleanly */
			return 0;
		fprintf(stderr, "%s: failed to execute %s: %s\n", g_pname, cmd,
			*cmdvp == NULL ? "empty command" : dtrace_errmsg(dtp, dtrace_errno(dtp)));
		return 1;
	}
	if (grab != NULL) {
		char *end;
		long pid = strtol(grab, &end, 10);

		if (*grab == '\0' || *end != '\0' || pid <= 0 || pid > INT32_MAX) {
			fprintf(stderr, "%s: invalid pid: %s\n", g_pname, grab);
			return 2;
		}
		if (dtrace_proc_grab(dtp, (int)pid) != 0) {
			if (g_intr)
				return 0;
			fprintf(stderr, "%s: %s\n", g_pname, dtrace_errmsg(dtp, dtrace_errno(dtp)));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char *argv[])
{
	enum { MODE_NONE, MODE_HEADER, MODE_LINK } mode = MODE_NONE;
	const char *output = NULL, **scripts, **descs;
	int *kinds = NULL, ndescs = 0;
	bool list = false, verbose = false;
	unsigned cflags = 0;
	bool compile_only = false;
	dtrace_prog_t *last = NULL;
	dtrace_hdl_t *dtp;
	int nscripts = 0, c, err, status = 0, margc = 0;
	bool *isprog = NULL;
	char **margv = NULL, *saved0 = NULL;
	char *defout = NULL;
	const char *cmd = NULL, *grab = NULL;
	bool quiet = false;
	char **cmdv = NULL;
	dtrace_prog_t **progs = NULL;
	char **made = NULL; /* the programs -P, -m and -f make, to free */
	FILE *out = stdout;
	bool tracing = false; /* the mode that traces, whose interruption is a clean end */

	catch_signals(); /* before anything: an early ^C must not leave things behind */
	if (argv[0] != NULL && strrchr(argv[0], '/') != NULL)
		g_pname = strrchr(argv[0], '/') + 1;
	if ((scripts = calloc((size_t)argc + 1, sizeof(char *))) == NULL ||
	    (isprog = calloc((size_t)argc + 1, sizeof(bool))) == NULL ||
	    (descs = calloc((size_t)argc + 1, sizeof(char *))) == NULL ||
	    (kinds = calloc((size_t)argc + 1, sizeof(int))) == NULL ||
	    (progs = calloc((size_t)argc + 1, sizeof(*progs))) == NULL ||
	    (made = calloc((size_t)argc + 1, sizeof(*made))) == NULL) {
		fprintf(stderr, "%s: out of memory\n", g_pname);
		return 1;
	}
	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		fprintf(stderr, "%s: failed to initialize dtrace: %s\n", g_pname,
			dtrace_errmsg(NULL, err));
		free(scripts);
		return 1;
	}

	/*
	 * Options may come after operands, as dtrace(1) reads them (dtrace -s
	 * x.d 42 -p PID): getopt moves the operands (macro arguments, or -G's
	 * objects) to the end, in order; "--" ends the options.
	 */
	while ((c = getopt(argc, argv, "b:c:CD:ef:FGhI:lL:m:n:o:p:P:qs:SU:vVwx:Z")) != -1) {
		switch (c) {
		case 'b': /* dtrace(1): -b is -x bufsize; a bad value is an error (1), not usage (2) */
			if (dtrace_setopt(dtp, "bufsize", optarg) != 0) {
				fprintf(stderr, "%s: failed to set -b %s: %s\n", g_pname, optarg,
					dtrace_errmsg(dtp, dtrace_errno(dtp)));
				status = 1;
				goto done;
			}
			break;
		case 'c': cmd = optarg; break;
		case 'p': grab = optarg; break;
		case 'F': (void)dtrace_setopt(dtp, "flowindent", NULL); break;
		case 'q':
			quiet = true;
			(void)dtrace_setopt(dtp, "quiet", NULL);
			break;
		case 'v':
			verbose = true;
			break; /* -l -v; a program's stability report is not printed */
		case 'w': (void)dtrace_setopt(dtp, "destructive", NULL); break;
		case 'Z': (void)dtrace_setopt(dtp, "zdefs", NULL); break;
		case 'C': cflags |= DTRACE_C_CPP; break;
		case 'S': cflags |= DTRACE_C_DIFV; break;
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
				status = 1;
				goto done;
			}
			break;
		case 'L': /* -x libdir: a directory of .d files every program is compiled after */
			if (dtrace_setopt(dtp, "libdir", optarg) != 0) {
				fprintf(stderr, "%s: failed to set -L %s: %s\n", g_pname, optarg,
					dtrace_errmsg(dtp, dtrace_errno(dtp)));
				status = 1;
				goto done;
			}
			break;
		case 'e': compile_only = true; break;
		case 'G': mode = MODE_LINK; break;
		case 'h': mode = MODE_HEADER; break;
		case 'o': output = optarg; break;
		case 's': scripts[nscripts++] = optarg; break;
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
		case 'l': list = true; break;
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
				status = 1;
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
	tracing = !list && mode == MODE_NONE && !compile_only;
	if (g_intr)
		goto done;
	if (list && mode == MODE_NONE && nfiles == 0) {
		/* with -c or -p, $target's probes too; a command made for it is killed */
		if ((cmd != NULL || grab != NULL) &&
		    (status = start_target(dtp, cmd, grab, &cmdv)) != 0)
			goto done;
		if (g_intr)
			goto done;
		/* the command made for it is killed by dtrace_close() */
		status = list_probes(dtp, descs, kinds, ndescs, dtrace_proc_target(dtp), verbose);
		goto done;
	}
	if (list) {
		fprintf(stderr,
			"%s: -l lists the probes of -n, -P, -m and -f descriptions; "
			"listing the probes of a script (-s) or with -h/-G is not available yet\n",
			g_pname);
		status = 2;
		goto done;
	}
	/* -P, -m and -f enable every probe they describe, with the default action */
	for (int i = 0; i < ndescs; i++) {
		static const char *const pre[] = { "", ":", "::" }, *const post[] = { ":::", "::",
										      ":" };
		size_t len;
		char *p;

		if (kinds[i] == DTRACE_PROBESPEC_NONE)
			continue;
		len = strlen(descs[i]) + 8;
		if ((p = malloc(len)) == NULL) {
			status = 1;
			goto done;
		}
		snprintf(p, len, "%s%s%s", pre[kinds[i]], descs[i], post[kinds[i]]);
		scripts[nscripts] = p;
		made[nscripts] = p;
		isprog[nscripts++] = true;
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
		/*
		 * $$0 is dtrace(1)'s own argv[0] (illumos g_argv[0]); only a -s
		 * script replaces it with its name (compile_file).  The slot held
		 * the last option word, read no more.
		 */
		margv[0] = argv[0];
	}

	if (mode == MODE_NONE && (cmd != NULL || grab != NULL)) {
		/*
		 * The target first, with -e too (as dtrace(1)): $target is known
		 * when the programs compile, and so are its pid probes' errors.
		 * A command made for it is killed by dtrace_close().
		 */
		if ((status = start_target(dtp, cmd, grab, &cmdv)) != 0)
			goto done;
	}
	for (int i = 0; i < nscripts; i++) {
		FILE *fp;

		if (g_intr)
			goto done;
		if (isprog[i]) {
			last =
			    dtrace_program_strcompile(dtp, scripts[i], "-n", cflags, margc, margv);
			if (last == NULL && g_intr)
				goto done;
			if (last == NULL) {
				fprintf(stderr, "%s: invalid probe specifier %s: %s\n", g_pname,
					scripts[i], dtrace_errmsg(dtp, dtrace_errno(dtp)));
				print_diag(dtp);
				status = 1;
				goto done;
			}
			progs[i] = last;
			continue;
		}
		if ((fp = fopen(scripts[i], "r")) == NULL) {
			if (errno == EINTR && g_intr) /* a FIFO no one opened yet */
				goto done;
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
		progs[i] = last;
		if (margv != NULL)
			margv[0] = saved0;
		fclose(fp);
		if (last == NULL && g_intr) /* the read was interrupted */
			goto done;
		if (last == NULL) {
			fprintf(stderr, "%s: failed to compile script %s: %s\n", g_pname,
				scripts[i], dtrace_errmsg(dtp, dtrace_errno(dtp)));
			print_diag(dtp);
			status = 1;
			goto done;
		}
	}
	if ((compile_only && mode == MODE_NONE) || g_intr)
		goto done;
	{
		/* as dtrace(1): a program's #pragma D option quiet is -q (no notices either) */
		int64_t q;

		if (dtrace_getopt(dtp, "quiet", &q) == 0 && q != DTRACEOPT_UNSET)
			quiet = true;
	}

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
		for (int i = 0; i < nscripts; i++) {
			dtrace_proginfo_t info;

			if (g_intr)
				goto done;
			if (dtrace_program_exec(dtp, progs[i], &info) != 0) {
				if (g_intr) /* a failure the interruption caused (EINTR) */
					goto done;
				if (isprog[i])
					fprintf(stderr, "%s: invalid probe specifier %s: %s\n",
						g_pname, scripts[i],
						dtrace_errmsg(dtp, dtrace_errno(dtp)));
				else
					fprintf(stderr, "%s: failed to enable script %s: %s\n",
						g_pname, scripts[i],
						dtrace_errmsg(dtp, dtrace_errno(dtp)));
				status = 1;
				goto done;
			}
			if (!quiet)
				notice_matched(isprog[i] ? "description" : "script", scripts[i],
					       info.dpi_matches, isprog[i]);
		}
		if (output != NULL && (out = fopen(output, "w")) == NULL) {
			fprintf(stderr, "%s: failed to open output file '%s': %s\n", g_pname,
				output, strerror(errno));
			out = stdout;
			status = 1;
			goto done;
		}
		if (g_intr)
			goto done;
		if (dtrace_go(dtp) != 0) {
			if (g_intr) /* the verifier gives up on a pending signal (EAGAIN) */
				goto done;
			fprintf(stderr, "%s: could not enable tracing: %s\n", g_pname,
				dtrace_errmsg(dtp, dtrace_errno(dtp)));
			status = 1;
			goto done;
		}
		if ((cmd != NULL || grab != NULL) && dtrace_proc_continue(dtp) != 0) {
			if (g_intr)
				goto done;
			fprintf(stderr, "%s: %s\n", g_pname, dtrace_errmsg(dtp, dtrace_errno(dtp)));
			status = 1;
			goto done;
		}
		status = trace_loop(dtp, out, output, quiet, cmd != NULL || grab != NULL);
	}
done:
	if (out != stdout && fclose(out) != 0 && status == 0) {
		report_write_error(output, errno);
		status = 1;
	} else if (out == stdout && status == 0 && (err = write_error(stdout)) != 0) {
		report_write_error(NULL, err); /* -l, -V, -h to standard output */
		status = 1;
	}
	if (cmdv != NULL) {
		free(cmdv[0]);
		free(cmdv);
	}
	for (int i = 0; i < nscripts; i++)
		free(made[i]);
	free(made);
	free(progs);
	free(defout);
	free(scripts);
	free(isprog);
	free(descs);
	free(kinds);
	dtrace_close(dtp); /* kills a -c command, continues a -p process */
	if (g_intr && !tracing)
		end_by_signal(g_intr);
	return status;
}
