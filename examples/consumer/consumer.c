/*
 * consumer.c -- a D consumer of its own, on the records API of libdtrace
 * (the shape of illumos's dtrace_consume examples): open a handle, compile
 * and enable a program, go, then sleep and consume until it ends; each
 * probe firing is one line of its own format, then every aggregation entry
 * is one line.
 *
 *   consumer [-c 'command args'] [-x opt=val]... 'D program'
 *
 * A firing:  CPU provider:module:function:name: value value ...
 * An entry:  @name key key ... = value
 *            @name key ... = [lo..hi]:count ...   (quantizations, non-empty buckets)
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dtrace.h>

static volatile sig_atomic_t g_intr;

static void on_signal(int sig)
{
	(void)sig;
	g_intr = 1;
}

/* One value as this program shows it. */
static void show(FILE *fp, const dtrace_record_t *r)
{
	switch (r->dtr_kind) {
	case DTRACE_REC_INT:
		if (r->dtr_signed)
			fprintf(fp, "%" PRId64, r->dtr_int);
		else
			fprintf(fp, "%" PRIu64, r->dtr_uint);
		break;
	case DTRACE_REC_FLOAT: fprintf(fp, "%g", r->dtr_float); break;
	case DTRACE_REC_STRING: fprintf(fp, "\"%s\"", r->dtr_str); break;
	case DTRACE_REC_BYTES: fprintf(fp, "<%zu bytes>", r->dtr_len); break;
	case DTRACE_REC_SYM:
	case DTRACE_REC_PRINTF: fprintf(fp, "%s", r->dtr_str); break;
	case DTRACE_REC_STACK:
		for (unsigned i = 0; i < r->dtr_nframes; i++)
			fprintf(fp, "%s%s", i ? "<" : "", r->dtr_frames[i]);
		break;
	case DTRACE_REC_EXIT: fprintf(fp, "exit(%" PRId64 ")", r->dtr_int); break;
	default: fprintf(fp, "%s()", r->dtr_action); break;
	}
}

static int on_probe(const dtrace_probedata_t *data, void *arg)
{
	const dtrace_probedesc_t *pd = data->dtpda_pdesc;

	fprintf(arg, "%d %s:%s:%s:%s:", data->dtpda_cpu, pd->dtpd_provider, pd->dtpd_mod,
		pd->dtpd_func, pd->dtpd_name);
	return DTRACE_CONSUME_THIS;
}

static int on_record(const dtrace_probedata_t *data, const dtrace_record_t *rec, void *arg)
{
	(void)data;
	if (rec == NULL) { /* the firing's end */
		fputc('\n', arg);
		return DTRACE_CONSUME_NEXT;
	}
	if (rec->dtr_kind == DTRACE_REC_PRINTA) /* the walk at the end shows them */
		return DTRACE_CONSUME_THIS;
	fputc(' ', arg);
	show(arg, rec);
	return DTRACE_CONSUME_THIS;
}

static int on_entry(const dtrace_aggdata_t *a, void *arg)
{
	FILE *fp = arg;

	fprintf(fp, "@%s", a->dtada_name);
	for (unsigned k = 0; k < a->dtada_nkeys; k++) {
		fputc(' ', fp);
		show(fp, &a->dtada_keys[k]);
	}
	fputs(" =", fp);
	if (a->dtada_nbuckets == 0)
		fprintf(fp, " %" PRId64, a->dtada_value);
	for (unsigned b = 0; b < a->dtada_nbuckets; b++) {
		const dtrace_aggbucket_t *bk = &a->dtada_buckets[b];

		if (bk->dtab_count == 0)
			continue;
		fputs(" [", fp);
		if (bk->dtab_lo != INT64_MIN)
			fprintf(fp, "%" PRId64, bk->dtab_lo);
		fputs("..", fp);
		if (bk->dtab_hi != INT64_MAX)
			fprintf(fp, "%" PRId64, bk->dtab_hi);
		fprintf(fp, "]:%" PRId64, bk->dtab_count);
	}
	fputc('\n', fp);
	return 0;
}

/* "cmd a b" as an argv (spaces split; enough for an example). */
static char **split(char *s)
{
	char **argv = calloc(strlen(s) / 2 + 2, sizeof(*argv));
	int n = 0;

	if (argv == NULL)
		return NULL;
	for (char *t = strtok(s, " "); t != NULL; t = strtok(NULL, " "))
		argv[n++] = t;
	return argv;
}

static int fail(dtrace_hdl_t *dtp, const char *what)
{
	fprintf(stderr, "consumer: %s: %s\n", what, dtrace_errmsg(dtp, dtrace_errno(dtp)));
	dtrace_close(dtp);
	return 1;
}

int main(int argc, char **argv)
{
	dtrace_consume_opts_t copts = {
		.sz = sizeof(copts), .probe = on_probe, .rec = on_record, .arg = stdout
	};
	dtrace_aggwalk_opts_t wopts = { .sz = sizeof(wopts) };
	char *cmd = NULL, **cmdv = NULL;
	dtrace_hdl_t *dtp;
	dtrace_prog_t *prog;
	bool done = false;
	int c, err, status = 0;

	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		fprintf(stderr, "consumer: cannot open dtrace: %s\n", dtrace_errmsg(NULL, err));
		return 1;
	}
	while ((c = getopt(argc, argv, "c:x:")) != -1) {
		char *eq;

		if (c == 'c') {
			cmd = optarg;
			continue;
		}
		if (c != 'x') {
			dtrace_close(dtp);
			return 2;
		}
		if ((eq = strchr(optarg, '=')) != NULL)
			*eq++ = '\0';
		if (dtrace_setopt(dtp, optarg, eq) != 0)
			return fail(dtp, optarg);
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: consumer [-c command] [-x opt=val]... 'D program'\n");
		dtrace_close(dtp);
		return 2;
	}
	/* the target first: the program may name $target */
	if (cmd != NULL && ((cmdv = split(cmd)) == NULL || dtrace_proc_create(dtp, cmdv) < 0)) {
		free(cmdv);
		return fail(dtp, "cannot start the command");
	}
	if ((prog = dtrace_program_strcompile(dtp, argv[optind], "program", 0, 0, NULL)) == NULL)
		return fail(dtp, "cannot compile the program");
	if (dtrace_program_exec(dtp, prog, NULL) != 0 || dtrace_go(dtp) != 0)
		return fail(dtp, "cannot enable the program");
	if (cmd != NULL && dtrace_proc_continue(dtp) != 0)
		return fail(dtp, "cannot run the command");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!done) {
		dtrace_sleep(dtp);
		if (g_intr || (cmd != NULL && dtrace_proc_exited(dtp, NULL)))
			dtrace_stop(dtp);
		switch (dtrace_consume(dtp, &copts)) {
		case DTRACE_WORKSTATUS_DONE: done = true; break;
		case DTRACE_WORKSTATUS_OKAY: break;
		default: free(cmdv); return fail(dtp, "cannot consume");
		}
	}
	if (dtrace_aggregate_walk(dtp, &wopts, on_entry, stdout) != 0) {
		free(cmdv);
		return fail(dtp, "cannot walk the aggregations");
	}
	if (dtrace_status(dtp) == DTRACE_STATUS_EXITED)
		status = dtrace_exit_value(dtp);
	dtrace_close(dtp);
	free(cmdv);
	return status;
}
