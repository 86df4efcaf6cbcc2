/*
 * test_group.c -- programs shared by many probes (dt_provider.h's groups),
 * linked without the kernel: the plan puts the syscall provider's enabled
 * entry probes in one program and its return probes in another, each with
 * its probes and keys (the call numbers), and leaves a profile probe on
 * its own; a group's program starts with the provider's guard and the
 * table lookup, and each clause runs only when the table's EPID for the
 * firing probe is set.
 */
#include <stdlib.h>

#include "../check.h"
#include "dt_dis.h"
#include "dt_impl.h"
#include "dt_run.h"

static char *dis_buf;
static size_t dis_len;

/* The program as dtrace -S prints instructions (the caller frees it). */
static char *dis(const dt_frag_t *fr)
{
	FILE *fp = open_memstream(&dis_buf, &dis_len);

	if (fp == NULL)
		abort();
	dt_dis(fp, "", fr->fr_insns, fr->fr_len, NULL, NULL);
	fclose(fp);
	return dis_buf;
}

static const dt_bprog_t *find(const dt_run_t *r, const char *group)
{
	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++) {
		const dt_bprog_t *bp = &r->r_ld.ld_progs[k];

		if (group == NULL ? bp->bp_group == NULL
				  : bp->bp_group != NULL && strcmp(bp->bp_group, group) == 0)
			return bp;
	}
	return NULL;
}

static bool has_key(const dt_bprog_t *bp, uint32_t key)
{
	for (size_t i = 0; i < bp->bp_nprobes; i++)
		if (bp->bp_keys[i] == key)
			return true;
	return false;
}

static void test_plan_and_link(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;
	const dt_bprog_t *enter, *exit_, *tick;
	dt_run_t *r;
	dt_frag_t fr = { 0 };
	char *text;

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	pgp = dtrace_program_strcompile(dtp,
					"syscall::openat:entry, syscall::read:entry,"
					" syscall::close:return { trace(probefunc); }\n"
					"syscall::read:entry { trace(epid); trace(id); }\n"
					"profile:::tick-1s { trace(probename); }\n",
					"g.d", 0, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL || dtrace_program_exec(dtp, pgp, NULL) != 0 || dt_load_link_all(dtp) != 0) {
		fprintf(stderr, "%s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		CHECK(false);
		dtrace_close(dtp);
		return;
	}
	r = dtp->dt_run;
	/* three programs: the entries' group, the returns' group, tick-1s alone */
	CHECK_INT(r->r_ld.ld_nprogs, 3);
	enter = find(r, "sys_enter");
	exit_ = find(r, "sys_exit");
	tick = find(r, NULL);
	CHECK(enter != NULL && exit_ != NULL && tick != NULL);
	if (enter == NULL || exit_ == NULL || tick == NULL) {
		dtrace_close(dtp);
		return;
	}
	CHECK_INT(enter->bp_nprobes, 2);
	CHECK(has_key(enter, 0) && has_key(enter, 257)); /* read, openat */
	CHECK_INT(exit_->bp_nprobes, 1);
	CHECK(has_key(exit_, 3)); /* close */
	CHECK_INT(tick->bp_nprobes, 0);
	CHECK_STR(dtp->dt_probes[tick->bp_probe].dtpd_name, "tick-1s");

	/* the entries' program: guard, lookup, the clauses under their EPIDs */
	CHECK_INT(dt_link_group(dtp, r, enter, &fr), 0);
	text = dis(&fr);
	CHECK(strncmp(text, "   0: r6 = r1\n   1: r0 = *(u64 *)(r6 +8)\n", 41) == 0);
	CHECK(strstr(text, "call get_current_task") != NULL);
	/* the compat test (helper calls) only for a call the table has */
	CHECK(strstr(text, "call map_lookup_elem") != NULL &&
	      strstr(text, "call map_lookup_elem") < strstr(text, "call get_current_task"));
	CHECK(strstr(text, "r0 &= 2\n") != NULL); /* TS_COMPAT, of the word read into r0 */
	CHECK(strstr(text, "call map_lookup_elem") != NULL);
	CHECK(strstr(text, "r9 = r0\n") != NULL);
	/* the table words copied, then one test per clause: two clauses */
	{
		int tests = 0;

		for (const char *p = text; (p = strstr(p, "r1 = *(u32 *)(r8 +")) != NULL; p++)
			tests++;
		CHECK(tests >= 5); /* key, prid, 2 EPIDs copied... */
	}
	/* probefunc differs across the group: read from the table */
	CHECK(strstr(text, "call probe_read_kernel_str") != NULL);
	free(text);
	dt_frag_free(&fr);

	/*
	 * a probe alone keeps its one-probe program: no guard; a tick's
	 * starts with the count of its lost firings (its place in dt_ticks
	 * from the attach cookie, its timer's running time: entry)
	 */
	memset(&fr, 0, sizeof(fr));
	CHECK_INT(dt_link_probe(dtp, r, tick->bp_probe, NULL, &fr), 0);
	text = dis(&fr);
	CHECK(strncmp(text, "   0: r6 = r1\n   1: call get_attach_cookie", 42) == 0);
	CHECK(strstr(text, "call perf_prog_read_value") != NULL);
	CHECK(strstr(text, "*(u32 *)(r10 -8) = 0\n") != NULL);
	CHECK(strstr(text, "r1 &= 2\n") == NULL);
	CHECK(strstr(text, " = 1801677172\n") != NULL); /* "tick": probename, a constant */
	free(text);
	dt_frag_free(&fr);
	dtrace_close(dtp);
}

int main(void)
{
	test_plan_and_link();
	return CHECK_DONE();
}
