/*
 * dt_prov_dtrace.c -- the dtrace provider: BEGIN, END and ERROR.
 *
 * BEGIN and END fire in dtrace's own thread: they are raw tracepoint
 * programs that dtrace runs itself (BPF_PROG_TEST_RUN, dtrace_go and
 * dtrace_stop), with nothing to attach.  A uprobe on a function of our own
 * would cost a uprobe registration and, on detach, an RCU tasks-trace
 * grace period: about 0.1 s, most of dtrace's start-up.  ERROR has no
 * program: its clauses are linked into the fault block of every clause.
 */
#include "dt_provider.h"

/* illumos' dtrace_provider_attr (uts/common/dtrace/dtrace.c) */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
};

static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	static const char *const names[] = { "BEGIN", "END", "ERROR" };
	dt_pinfo_t pi = { .pi_prov = &dt_prov_dtrace, .pi_attr = &attr };

	(void)dtp;
	for (int i = 0; i < 3; i++) {
		pi.pi_kind = DT_PK_BEGIN + i;
		if (dt_ptab_add(t, "dtrace", "", "", names[i], &pi))
			return 1;
	}
	return 0;
}

static int programs(dtrace_hdl_t *dtp, size_t p, dt_progspec_f *add, void *arg)
{
	return dt_probe_is(dtp, p, DT_PK_ERROR) ? 0 : add(arg, NULL);
}

static uint32_t activity(const dt_pinfo_t *pi)
{
	return pi->pi_kind == DT_PK_BEGIN ? DT_ACTIVITY_WARMUP
	       : pi->pi_kind == DT_PK_END ? DT_ACTIVITY_ENDING
					  : DT_ACTIVITY_ACTIVE;
}

/* BEGIN and END have no arguments (ERROR's come from the error record, in dt_link.c) */
static int arg(const dt_argreq_t *rq, int i)
{
	(void)i;
	dt_frag_emit(rq->ar_out, KS_MOV64_IMM(BPF_REG_0, 0));
	return 0;
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	(void)dtp, (void)p, (void)argspec, (void)fd, (void)attach_type, (void)ncpus, (void)links;
	return 0; /* run by dtrace itself */
}

const dt_provimpl_t dt_prov_dtrace = {
	.pv_name = "dtrace",
	.pv_populate = populate,
	.pv_programs = programs,
	.pv_activity = activity,
	.pv_arg = arg,
	.pv_attach = attach,
};
