/*
 * dt_load.c -- enabling programs and loading them: matching probe
 * descriptions to probes (ECBs, dtrace_program_exec), then in dtrace_go
 * the maps, one program per probe (and argument specification) linked from
 * the compiled clauses (dt_link.c) and loaded, attached by its provider,
 * and BEGIN and END fired.  The run (dt_run.h) is made and freed here.
 *
 * BEGIN and END are programs dtrace runs itself (BPF_PROG_TEST_RUN), in
 * its own thread: BEGIN before any other probe may record (the state's
 * activity is WARMUP until it returns), END after every other probe has
 * stopped recording (ENDING), as DTrace orders them.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btf.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/user.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dt_provider.h"
#include "dt_run.h"
#include "dt_unwind.h"

/* ---------------------------------------------------------------- the run */

dt_run_t *dt_run_get(dtrace_hdl_t *dtp)
{
	dt_run_t *r = dtp->dt_run;

	if (r != NULL)
		return r;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	for (int i = 0; i < DT_MAP_NFIXED; i++)
		r->r_ld.ld_fd[i] = -1;
	r->r_tg.tg_pidfd = -1;
	r->r_dr.dr_saved_fd = -1;
	r->r_ld.ld_off[0] = -2; /* not looked up */
	r->r_dr.dr_status = DTRACE_STATUS_NONE;
	dtp->dt_run = r;
	return r;
}

void dt_run_free(dtrace_hdl_t *dtp)
{
	dt_run_t *r = dtp->dt_run;

	if (r == NULL)
		return;
	dt_proc_release(r);
	ks_detach_all(r->r_ld.ld_links.ln_fds, r->r_ld.ld_links.ln_n);
	ks_detach_wait(); /* and those handed over while tracing */
	free(r->r_ld.ld_links.ln_fds);
	for (int c = 0; r->r_ld.ld_tgroup != NULL && c < 2 * r->r_ld.ld_ncpus; c++)
		if (r->r_ld.ld_tgroup[c] > 0)
			close(r->r_ld.ld_tgroup[c] - 1);
	free(r->r_ld.ld_tgroup);
	for (size_t i = 0; i < r->r_ld.ld_nprogs; i++) {
		if (r->r_ld.ld_progs[i].bp_fd >= 0)
			close(r->r_ld.ld_progs[i].bp_fd);
		if (r->r_ld.ld_progs[i].bp_tabfd >= 0)
			close(r->r_ld.ld_progs[i].bp_tabfd);
		free(r->r_ld.ld_progs[i].bp_probes);
		free(r->r_ld.ld_progs[i].bp_keys);
	}
	free(r->r_ld.ld_progs);
	ks_perfbuf_free(r->r_dr.dr_pb);
	for (int i = 0; i < DT_MAP_NFIXED; i++)
		if (r->r_ld.ld_fd[i] >= 0)
			close(r->r_ld.ld_fd[i]);
	for (uint32_t i = 0; i < r->r_ld.ld_nsoufds; i++)
		if (r->r_ld.ld_soufds[i] >= 0)
			close(r->r_ld.ld_soufds[i]);
	free(r->r_ld.ld_soufds);
	free(r->r_dr.dr_drops_seen);
	free(r->r_dr.dr_acks);
	dt_unw_destroy(r->r_ld.ld_unw);
	free(r->r_ld.ld_unwreq);
	dt_consume_free(r);
	if (r->r_dr.dr_saved_fd >= 0)
		close(r->r_dr.dr_saved_fd);
	for (uint32_t i = 0; i < r->r_ld.ld_nshapes; i++)
		close(r->r_ld.ld_shapefds[i]);
	free(r->r_ld.ld_shapefds);
	free(r->r_ld.ld_aggfds);
	for (uint32_t i = 0; i < r->r_dr.dr_naggs; i++) {
		dt_agg_snap_free(&r->r_dr.dr_aggs[i]);
		if (r->r_dr.dr_aggs[i].av_iter > 0)
			close(r->r_dr.dr_aggs[i].av_iter);
	}
	free(r->r_dr.dr_aggs);
	if (r->r_tg.tg_pidfd >= 0)
		close(r->r_tg.tg_pidfd);
	free(r->r_en.en_stmts);
	free(r->r_en.en_ecbs);
	free(r);
	dtp->dt_run = NULL;
}

/* ---------------------------------------------------------------- matching */

static int add_ecb(dtrace_hdl_t *dtp, dt_run_t *r, int stmt, size_t probe)
{
	for (uint32_t i = 0; i < r->r_en.en_necbs; i++) /* two descriptions, one probe */
		if (r->r_en.en_ecbs[i].e_probe == probe &&
		    r->r_en.en_ecbs[i].e_stmt == r->r_en.en_stmts[stmt])
			return 0;
	/* an EPID freed with its probe (release_gone) is taken again */
	for (uint32_t i = r->r_en.en_nfree > 0 ? 0 : r->r_en.en_necbs; i < r->r_en.en_necbs; i++)
		if (r->r_en.en_ecbs[i].e_probe == DT_ECB_FREE) {
			r->r_en.en_ecbs[i] =
			    (dt_ecb_t){ i + 1, probe, r->r_en.en_stmts[stmt], stmt, 0 };
			r->r_en.en_nfree--;
			return 1;
		}
	if (dt_grow(&r->r_en.en_ecbs, &r->r_en.en_ecbcap, r->r_en.en_necbs, sizeof(dt_ecb_t), 32) !=
	    0)
		return dt_set_errno(dtp, EDT_NOMEM);
	r->r_en.en_ecbs[r->r_en.en_necbs] =
	    (dt_ecb_t){ r->r_en.en_necbs + 1, probe, r->r_en.en_stmts[stmt], stmt, 0 };
	r->r_en.en_necbs++;
	return 1;
}

/* Enable the statement for every probe from index first on that its descriptions match. */
static int match_stmt(dtrace_hdl_t *dtp, dt_run_t *r, int stmt, size_t first, unsigned *nmatch)
{
	for (dt_node_t *pd = r->r_en.en_stmts[stmt]->st_clause->dn_pdescs; pd != NULL;
	     pd = pd->dn_next) {
		dtrace_probedesc_t desc;

		if (dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, pd->dn_name, &desc) != 0)
			return -1;
		/* probes made on demand: a file as the module, tick-10ms */
		if (first == 0 && dt_probe_provide(dtp, &desc) != 0)
			return -1;
		for (size_t i = first; i < dtp->dt_nprobes; i++) {
			int rc;

			if (!dt_probe_match(&desc, &dtp->dt_probes[i]))
				continue;
			if ((rc = add_ecb(dtp, r, stmt, i)) < 0)
				return -1;
			*nmatch += (unsigned)rc;
		}
	}
	return 0;
}

/* Enable the program's clauses: 0, or -1 with nothing of it enabled. */
static int exec_program(dtrace_hdl_t *dtp, dt_run_t *r, dtrace_prog_t *pgp, dtrace_proginfo_t *info)
{
	unsigned ndesc = 0, nmatch = 0;

	for (int k = 0; k < pgp->dp_nstmts; k++) {
		dt_stmt_t **ns;
		dt_node_t *c = pgp->dp_stmts[k].st_clause;
		unsigned before = nmatch;

		ns = realloc(r->r_en.en_stmts, (size_t)(r->r_en.en_nstmts + 1) * sizeof(*ns));
		if (ns == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		r->r_en.en_stmts = ns;
		ns[r->r_en.en_nstmts++] = &pgp->dp_stmts[k];
		if (match_stmt(dtp, r, r->r_en.en_nstmts - 1, 0, &nmatch) != 0)
			return -1;
		for (dt_node_t *pd = c->dn_pdescs; pd != NULL; pd = pd->dn_next)
			ndesc++;
		if (nmatch == before && !dt_option_isset(dtp, "zdefs")) {
			dtrace_probedesc_t d;

			(void)dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, c->dn_pdescs->dn_name,
					      &d);
			if (dt_probe_unavailable(dtp, &d) != 0)
				return -1;
			return dt_set_errmsg(
			    dtp, EDT_NOPROBE,
			    "probe description %s:%s:%s:%s does not match any probes",
			    d.dtpd_provider, d.dtpd_mod, d.dtpd_func, d.dtpd_name);
		}
	}
	if (info != NULL) {
		info->dpi_descs = ndesc;
		info->dpi_matches = nmatch;
	}
	return 0;
}

int dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *info)
{
	dt_run_t *r;
	int nstmts;
	uint32_t necbs;

	if (dtp == NULL)
		return -1;
	if (pgp == NULL)
		return dt_set_errno(dtp, EDT_BADARG);
	if (dtp->dt_run != NULL && dtp->dt_run->r_ld.ld_started)
		return dt_set_errmsg(dtp, EDT_BADARG, "tracing has started: no more programs");
	if ((r = dt_run_get(dtp)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	/*
	 * the probe table, read now; the USDT probes of the processes running
	 * now that a description can match are read as each is matched
	 */
	if (dt_probe_table(dtp) != 0)
		return -1;
	nstmts = r->r_en.en_nstmts;
	necbs = r->r_en.en_necbs;
	if (exec_program(dtp, r, pgp, info) != 0) { /* none of its clauses stays enabled */
		r->r_en.en_nstmts = nstmts;
		r->r_en.en_necbs = necbs;
		return -1;
	}
	return 0;
}

bool dt_run_uses(const dtrace_hdl_t *dtp, const dtrace_prog_t *pgp)
{
	const dt_run_t *r = dtp->dt_run;

	for (int i = 0; r != NULL && i < r->r_en.en_nstmts; i++)
		if (r->r_en.en_stmts[i] >= pgp->dp_stmts &&
		    r->r_en.en_stmts[i] < pgp->dp_stmts + pgp->dp_nstmts)
			return true;
	return false;
}

/* ---------------------------------------------------------------- loading */

static int add_prog(dtrace_hdl_t *dtp, dt_run_t *r, size_t probe, const char *argspec)
{
	if (dt_grow(&r->r_ld.ld_progs, &r->r_ld.ld_progcap, r->r_ld.ld_nprogs, sizeof(dt_bprog_t),
		    16) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	r->r_ld.ld_progs[r->r_ld.ld_nprogs++] =
	    (dt_bprog_t){ .bp_probe = probe, .bp_argspec = argspec, .bp_fd = -1, .bp_tabfd = -1 };
	return 0;
}

/* A shared program's clauses (pv_share): the statements of its probes' ECBs, in order. */
typedef struct plan_share {
	size_t ps_k; /* the program */
	const int *ps_sidx;
	size_t ps_n;
	uint64_t ps_hash;
} plan_share_t;

typedef struct plan_arg {
	dtrace_hdl_t *pa_dtp;
	dt_run_t *pa_run;
	size_t pa_probe;
	size_t pa_first;    /* this plan's first program: groups are not shared across plans */
	const int *pa_sidx; /* the statements of the probe's ECBs, in order */
	size_t pa_nsidx;
	plan_share_t *pa_shares; /* the plan's shared programs */
	size_t *pa_nshares, *pa_sharecap;
} plan_arg_t;

/* Probe p joins a group's program bp, with its key. */
static int group_join(dtrace_hdl_t *dtp, dt_bprog_t *bp, size_t p, uint32_t key)
{
	size_t n = bp->bp_nprobes, cap = bp->bp_probecap;

	/* both arrays have bp_probecap places: it grows once both did */
	if (dt_grow(&bp->bp_probes, &cap, n, sizeof(size_t), 8) != 0 ||
	    dt_grow(&bp->bp_keys, &bp->bp_probecap, n, sizeof(uint32_t), 8) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	bp->bp_probes[n] = p;
	bp->bp_keys[n] = key;
	bp->bp_nprobes = n + 1;
	return 0;
}

static bool same_argspec(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The name of a group of probes that share a program for having the same clauses. */
static const char share_group[] = "clauses";

/*
 * Probe p of a provider whose probes share programs (pv_share): the
 * program of this plan's probes with the same clauses and argspec, as the
 * next key there, else a new one.
 */
static int share_add(plan_arg_t *pa, const char *argspec)
{
	dtrace_hdl_t *dtp = pa->pa_dtp;
	dt_run_t *r = pa->pa_run;
	const dt_provimpl_t *pv = dt_probe_prov(dtp, pa->pa_probe);
	uint64_t h = 14695981039346656037ULL; /* FNV-1a over the statement indices */
	plan_share_t *ps;

	for (size_t i = 0; i < pa->pa_nsidx; i++)
		h = (h ^ (uint64_t)pa->pa_sidx[i]) * 1099511628211ULL;
	for (size_t i = 0; i < *pa->pa_nshares; i++) {
		dt_bprog_t *bp;

		ps = &pa->pa_shares[i];
		bp = &r->r_ld.ld_progs[ps->ps_k];
		if (ps->ps_hash == h && ps->ps_n == pa->pa_nsidx &&
		    memcmp(ps->ps_sidx, pa->pa_sidx, ps->ps_n * sizeof(int)) == 0 &&
		    dt_probe_prov(dtp, bp->bp_probe) == pv && same_argspec(bp->bp_argspec, argspec))
			return group_join(dtp, bp, pa->pa_probe, (uint32_t)bp->bp_nprobes);
	}
	if (dt_grow(&pa->pa_shares, pa->pa_sharecap, *pa->pa_nshares, sizeof(plan_share_t), 16) !=
		0 ||
	    add_prog(dtp, r, pa->pa_probe, argspec) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	pa->pa_shares[(*pa->pa_nshares)++] =
	    (plan_share_t){ r->r_ld.ld_nprogs - 1, pa->pa_sidx, pa->pa_nsidx, h };
	r->r_ld.ld_progs[r->r_ld.ld_nprogs - 1].bp_group = share_group;
	return group_join(dtp, &r->r_ld.ld_progs[r->r_ld.ld_nprogs - 1], pa->pa_probe, 0);
}

/*
 * Probe p needs a program for argspec: its own, or its group's (one of
 * this plan's with the same provider, group and argspec, else a new one).
 * A rescan's new probes get new group programs: loaded programs stay as
 * they are.
 */
static int plan_add(void *arg, const char *argspec)
{
	plan_arg_t *pa = arg;
	dtrace_hdl_t *dtp = pa->pa_dtp;
	dt_run_t *r = pa->pa_run;
	const dt_provimpl_t *pv = dt_probe_prov(dtp, pa->pa_probe);
	const char *group;
	uint32_t key = 0;

	/* shared: while the firing probe's table words fit the scratch (dt_link.c) */
	if (pv->pv_share && pv->pv_guard != NULL && pv->pv_attach_group != NULL &&
	    r->r_ld.ld_layout.ly_group + DT_GENT_EPID(r->r_en.en_nstmts) <= INT16_MAX)
		return share_add(pa, argspec);
	if (pv->pv_group == NULL || pv->pv_guard == NULL ||
	    (group = pv->pv_group(dtp, pa->pa_probe, &key)) == NULL)
		return add_prog(dtp, r, pa->pa_probe, argspec);
	for (size_t k = pa->pa_first; k < r->r_ld.ld_nprogs; k++) {
		dt_bprog_t *bp = &r->r_ld.ld_progs[k];

		if (bp->bp_group != NULL && dt_probe_prov(dtp, bp->bp_probe) == pv &&
		    strcmp(bp->bp_group, group) == 0 && same_argspec(bp->bp_argspec, argspec))
			return group_join(dtp, bp, pa->pa_probe, key);
	}
	if (add_prog(dtp, r, pa->pa_probe, argspec) != 0)
		return -1;
	r->r_ld.ld_progs[r->r_ld.ld_nprogs - 1].bp_group = group;
	return group_join(dtp, &r->r_ld.ld_progs[r->r_ld.ld_nprogs - 1], pa->pa_probe, key);
}

/* The programs probe p needs, as its provider names them (one by default). */
static int plan_probe(dtrace_hdl_t *dtp, size_t p, plan_arg_t *pa)
{
	const dt_provimpl_t *pv = dt_probe_prov(dtp, p);

	return pv->pv_programs != NULL ? pv->pv_programs(dtp, p, plan_add, pa) : plan_add(pa, NULL);
}

/*
 * The programs to build for probes from index first on: as their
 * providers say.  The ECBs are sorted by probe first (each probe's
 * statements in the ECBs' order), so that each probe finds its own.
 */
static int plan(dtrace_hdl_t *dtp, dt_run_t *r, size_t first)
{
	size_t k0 = r->r_ld.ld_nprogs, np = dtp->dt_nprobes - first, nshares = 0, sharecap = 0;
	size_t *start = calloc(np + 1, sizeof(size_t));
	int *sidx = malloc((r->r_en.en_necbs + 1) * sizeof(int));
	plan_share_t *shares = NULL;
	int rc = 0;

	if (start == NULL || sidx == NULL) {
		free(start);
		free(sidx);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	/* a counting sort of the ECBs by probe: start[p - first] is the first of probe p's */
	for (uint32_t i = 0; i < r->r_en.en_necbs; i++) {
		size_t p = r->r_en.en_ecbs[i].e_probe;

		if (p != DT_ECB_FREE && p >= first && p < dtp->dt_nprobes)
			start[p - first + 1]++;
	}
	for (size_t i = 0; i < np; i++)
		start[i + 1] += start[i];
	{
		size_t *at = malloc((np + 1) * sizeof(size_t));

		if (at == NULL) {
			free(start);
			free(sidx);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
		memcpy(at, start, (np + 1) * sizeof(size_t));
		for (uint32_t i = 0; i < r->r_en.en_necbs; i++) {
			size_t p = r->r_en.en_ecbs[i].e_probe;

			if (p != DT_ECB_FREE && p >= first && p < dtp->dt_nprobes)
				sidx[at[p - first]++] = r->r_en.en_ecbs[i].e_sidx;
		}
		free(at);
	}
	for (size_t p = first; p < dtp->dt_nprobes && rc == 0; p++) {
		plan_arg_t pa = { dtp,
				  r,
				  p,
				  k0,
				  sidx + start[p - first],
				  start[p - first + 1] - start[p - first],
				  NULL,
				  &nshares,
				  &sharecap };

		if (pa.pa_nsidx == 0)
			continue;
		pa.pa_shares = shares;
		rc = plan_probe(dtp, p, &pa);
		shares = pa.pa_shares;
	}
	/* a shared program no other probe joined: the probe's own, as without sharing */
	for (size_t i = 0; i < nshares && rc == 0; i++) {
		dt_bprog_t *bp = &r->r_ld.ld_progs[shares[i].ps_k];

		if (bp->bp_nprobes == 1) {
			bp->bp_group = NULL;
			free(bp->bp_probes);
			free(bp->bp_keys);
			bp->bp_probes = NULL;
			bp->bp_keys = NULL;
			bp->bp_nprobes = bp->bp_probecap = 0;
		}
	}
	free(shares);
	free(start);
	free(sidx);
	return rc;
}

/* Fire BEGIN or END (the dtrace provider's): run its program, if a clause enabled it. */
static void fire_own(dtrace_hdl_t *dtp, dt_run_t *r, dt_pkind_t kind)
{
	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++)
		if (dt_probe_is(dtp, r->r_ld.ld_progs[k].bp_probe, kind) &&
		    r->r_ld.ld_progs[k].bp_fd >= 0)
			(void)ks_prog_run(r->r_ld.ld_progs[k].bp_fd);
}

/* The BPF type, attach type and BTF id of probe p's programs, as its provider says. */
static void prog_kind(dtrace_hdl_t *dtp, size_t p, enum bpf_prog_type *type, uint32_t *attach_type,
		      uint32_t *btf_id)
{
	*btf_id = 0;
	if (dt_probe_prov(dtp, p)->pv_progtype != NULL) {
		dt_probe_prov(dtp, p)->pv_progtype(&dtp->dt_pinfo[p], type, attach_type, btf_id);
	} else { /* a raw tracepoint */
		*type = BPF_PROG_TYPE_RAW_TRACEPOINT;
		*attach_type = 0;
	}
}

/* The verifier's last three lines of log, in place (a suffix of it). */
static const char *log_tail(char *log)
{
	size_t len = strlen(log);

	while (len > 0 && log[len - 1] == '\n')
		log[--len] = '\0';
	for (int lines = 0; len > 0 && lines < 3; len--)
		if (log[len - 1] == '\n' && ++lines == 3)
			break;
	return log + len;
}

/* -1 with the message of a program of what that did not load (err: errno; why: the log's end). */
static int load_failed(dtrace_hdl_t *dtp, int err, const char *what, const char *why)
{
	return dt_set_errmsg(dtp, err == EPERM ? EDT_NOPRIV : EDT_ENABLING,
			     "cannot load the program of %s: %s%s%s", what, strerror(err),
			     *why ? ": " : "", why);
}

/*
 * Load a linked program of probe p's provider: the fd, or -1 with a message
 * that names what (the verifier's last words say why).
 */
static int load(dtrace_hdl_t *dtp, size_t p, dt_frag_t *prog, uint32_t *attach_type,
		const char *what)
{
	ks_code_t code = { prog->fr_insns, prog->fr_len,   prog->fr_cap,
			   false,	   prog->fr_gfunc, prog->fr_gsize };
	enum bpf_prog_type type;
	uint32_t btf_id;
	char *log;
	int fd;

	if ((log = malloc(1 << 20)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	prog_kind(dtp, p, &type, attach_type, &btf_id);
	if ((fd = ks_prog_load_btf(type, *attach_type, btf_id, "dtrace", &code, log, 1 << 20)) < 0)
		fd = load_failed(dtp, -fd, what, log_tail(log));
	free(log);
	return fd;
}

/*
 * A group's table: for each of its probes, by key, its probe id, the EPID
 * of each statement on it (0: not enabled there) and its names.  Made
 * before linking (the program names it), filled before attaching.
 */
static int group_table(dtrace_hdl_t *dtp, dt_run_t *r, dt_bprog_t *bp, bool ld)
{
	int nst = r->r_en.en_nstmts;
	uint32_t vsize = dt_gent_size(nst), maxkey = 0;
	uint8_t *v;
	size_t *at; /* by probe index: its place in the group, or SIZE_MAX */
	int err = 0;

	bp->bp_tabfd = -1;
	if (!ld)
		return 0;
	for (size_t i = 0; i < bp->bp_nprobes; i++)
		if (bp->bp_keys[i] > maxkey)
			maxkey = bp->bp_keys[i];
	bp->bp_tabfd = ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_group", 4, vsize, maxkey + 1, 0);
	if (bp->bp_tabfd < 0) {
		err = -bp->bp_tabfd;
		bp->bp_tabfd = -1;
		return dt_set_errmsg(dtp, err == EPERM ? EDT_NOPRIV : EDT_ENABLING,
				     "cannot make the table of %s's %s programs: %s",
				     dt_probe_prov(dtp, bp->bp_probe)->pv_name, bp->bp_group,
				     strerror(err));
	}
	/* each probe's value, then each ECB's EPID in its probe's value */
	if ((v = calloc(bp->bp_nprobes, vsize)) == NULL ||
	    (at = malloc(dtp->dt_nprobes * sizeof(size_t))) == NULL) {
		free(v);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	memset(at, 0xff, dtp->dt_nprobes * sizeof(size_t));
	for (size_t i = 0; i < bp->bp_nprobes; i++) {
		const dtrace_probedesc_t *pd = &dtp->dt_probes[bp->bp_probes[i]];
		const char *names[4] = { pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func,
					 pd->dtpd_name };
		uint32_t prid = (uint32_t)pd->dtpd_id;
		uint8_t *vi = v + i * vsize;

		at[bp->bp_probes[i]] = i;
		memcpy(vi + DT_GENT_KEY, &bp->bp_keys[i], 4);
		memcpy(vi + DT_GENT_PRID, &prid, 4);
		for (int w = 0; w < 4; w++)
			memcpy(vi + dt_gent_name(nst, w), names[w], strlen(names[w]) + 1);
	}
	for (uint32_t e = 0; e < r->r_en.en_necbs; e++) {
		const dt_ecb_t *ecb = &r->r_en.en_ecbs[e];

		if (ecb->e_probe != DT_ECB_FREE && at[ecb->e_probe] != SIZE_MAX)
			memcpy(v + at[ecb->e_probe] * vsize + DT_GENT_EPID(ecb->e_sidx),
			       &ecb->e_epid, 4);
	}
	for (size_t i = 0; i < bp->bp_nprobes && err == 0; i++)
		err = ks_map_update(bp->bp_tabfd, &bp->bp_keys[i], v + i * vsize, BPF_ANY);
	free(v);
	free(at);
	if (err != 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot fill a group's table: %s",
				     strerror(-err));
	return 0;
}

/* What a message calls program k: its probe, and how many more its group has. */
static void prog_what(dtrace_hdl_t *dtp, const dt_bprog_t *bp, char *what, size_t size)
{
	const dtrace_probedesc_t *pd = &dtp->dt_probes[bp->bp_probe];

	if (bp->bp_group != NULL && bp->bp_nprobes > 1)
		snprintf(what, size, "%s:%s:%s:%s and %zu more probes", pd->dtpd_provider,
			 pd->dtpd_mod, pd->dtpd_func, pd->dtpd_name, bp->bp_nprobes - 1);
	else
		snprintf(what, size, "%s:%s:%s:%s", pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func,
			 pd->dtpd_name);
}

/* Link the program of r_progs[k] into prog (a group's table made first, when ld is set). */
static int link_prog(dtrace_hdl_t *dtp, dt_run_t *r, size_t k, bool ld, dt_frag_t *prog)
{
	dt_bprog_t *bp = &r->r_ld.ld_progs[k];

	if (bp->bp_group != NULL)
		return group_table(dtp, r, bp, ld) != 0 ? -1 : dt_link_group(dtp, r, bp, prog);
	return dt_link_probe(dtp, r, bp->bp_probe, bp->bp_argspec, prog);
}

/* Link the program of r_progs[k]; load it when load is set. */
static int build(dtrace_hdl_t *dtp, dt_run_t *r, size_t k, bool ld)
{
	dt_bprog_t *bp = &r->r_ld.ld_progs[k];
	dt_frag_t prog = { 0 };
	char
	    what[DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 64];
	int rc = link_prog(dtp, r, k, ld, &prog);

	if (rc == 0 && ld) {
		prog_what(dtp, bp, what, sizeof(what));
		bp->bp_fd = load(dtp, bp->bp_probe, &prog, &bp->bp_attach_type, what);
		rc = bp->bp_fd < 0 ? -1 : 0;
	}
	dt_frag_free(&prog);
	return rc;
}

/*
 * Loading many programs at once: the kernel verifies and compiles each
 * (nearly all of a large script's start-up: 2,000 programs, 1.2 s here),
 * and programs verify independently, so threads load them on every CPU.
 * Linking stays in the caller's thread (providers' hooks, the handle's
 * error), a batch at a time.
 */
#define LJ_UNTRIED INT_MIN

typedef struct load_job {
	dt_frag_t lj_prog;
	enum bpf_prog_type lj_type;
	uint32_t lj_btf_id;
	int lj_fd;	  /* the program, -errno, or LJ_UNTRIED */
	char lj_why[512]; /* the end of the verifier's log when it refused */
} load_job_t;

typedef struct load_pool {
	load_job_t *lp_jobs;
	uint32_t *lp_attach; /* each job's attach type (its program's bp_attach_type) */
	size_t lp_n;
	size_t lp_next; /* the next job to take (atomic) */
	int lp_failed;	/* a load failed: take no more (atomic) */
} load_pool_t;

static void *load_some(void *arg)
{
	load_pool_t *lp = arg;
	char *log = malloc(1 << 20);
	size_t i;

	while (!__atomic_load_n(&lp->lp_failed, __ATOMIC_RELAXED) &&
	       (i = __atomic_fetch_add(&lp->lp_next, 1, __ATOMIC_RELAXED)) < lp->lp_n) {
		load_job_t *j = &lp->lp_jobs[i];
		const dt_frag_t *f = &j->lj_prog;
		ks_code_t code = { f->fr_insns, f->fr_len,   f->fr_cap,
				   false,	f->fr_gfunc, f->fr_gsize };

		j->lj_fd = ks_prog_load_btf(j->lj_type, lp->lp_attach[i], j->lj_btf_id, "dtrace",
					    &code, log, log != NULL ? 1 << 20 : 0);
		if (j->lj_fd < 0) {
			snprintf(j->lj_why, sizeof(j->lj_why), "%s",
				 log != NULL ? log_tail(log) : "");
			__atomic_store_n(&lp->lp_failed, 1, __ATOMIC_RELAXED);
		}
	}
	free(log);
	return NULL;
}

/* Load the jobs of lp on up to nt threads (this one among them). */
static void load_pool_run(load_pool_t *lp, long nt)
{
	enum { MAXT = 16 };
	pthread_t tid[MAXT];
	bool started[MAXT] = { false };

	if (nt > MAXT)
		nt = MAXT;
	if ((size_t)nt > lp->lp_n)
		nt = (long)lp->lp_n;
	for (long t = 1; t < nt; t++)
		started[t] = pthread_create(&tid[t], NULL, load_some, lp) == 0;
	load_some(lp);
	for (long t = 1; t < nt; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}

/*
 * build() of programs k0 to k1 - 1, loaded: on every CPU, in batches.  A
 * failure leaves each program that loaded in its bp_fd (closed with the
 * run), and the message of the first that did not.
 */
static int build_all(dtrace_hdl_t *dtp, dt_run_t *r, size_t k0, size_t k1)
{
	enum { BATCH = 128 };
	long nt = sysconf(_SC_NPROCESSORS_ONLN);
	load_job_t *jobs;
	uint32_t attach[BATCH];
	int rc = 0;

	if (k1 - k0 <= 1 || nt <= 1) { /* one at a time: no threads */
		for (size_t k = k0; k < k1; k++)
			if (build(dtp, r, k, true) != 0)
				return -1;
		return 0;
	}
	if ((jobs = calloc(BATCH, sizeof(*jobs))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (size_t b = k0; b < k1 && rc == 0; b += BATCH) {
		size_t n = k1 - b < BATCH ? k1 - b : BATCH, linked = 0;
		load_pool_t lp = { jobs, attach, 0, 0, 0 };

		for (; linked < n && rc == 0; linked++) {
			dt_bprog_t *bp = &r->r_ld.ld_progs[b + linked];
			load_job_t *j = &jobs[linked];

			memset(j, 0, sizeof(*j));
			j->lj_fd = LJ_UNTRIED;
			prog_kind(dtp, bp->bp_probe, &j->lj_type, &attach[linked], &j->lj_btf_id);
			rc = link_prog(dtp, r, b + linked, true, &j->lj_prog);
		}
		lp.lp_n = rc == 0 ? n : 0;
		load_pool_run(&lp, nt);
		for (size_t i = 0; i < linked; i++) {
			dt_bprog_t *bp = &r->r_ld.ld_progs[b + i];

			bp->bp_attach_type = attach[i];
			if (jobs[i].lj_fd >= 0) {
				bp->bp_fd = jobs[i].lj_fd;
			} else if (rc == 0 && jobs[i].lj_fd != LJ_UNTRIED) {
				char what[DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN +
					  DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 64];

				prog_what(dtp, bp, what, sizeof(what));
				rc = load_failed(dtp, -jobs[i].lj_fd, what, jobs[i].lj_why);
			}
			dt_frag_free(&jobs[i].lj_prog);
		}
	}
	free(jobs);
	return rc;
}

/*
 * The timers the run's programs attach: a tick probe's one, a profile
 * probe's one per CPU.
 */
static size_t count_timers(dtrace_hdl_t *dtp, const dt_run_t *r)
{
	size_t n = 0;

	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++) {
		const dt_bprog_t *bp = &r->r_ld.ld_progs[k];
		size_t np = bp->bp_group != NULL ? bp->bp_nprobes : 1;

		for (size_t i = 0; i < np; i++) {
			size_t p = bp->bp_group != NULL ? bp->bp_probes[i] : bp->bp_probe;

			if (dt_probe_is(dtp, p, DT_PK_TICK))
				n++;
			else if (dt_probe_is(dtp, p, DT_PK_PROFILE))
				n += (size_t)r->r_ld.ld_ncpus;
		}
	}
	return n;
}

/*
 * Timers start in groups only when there are many: in a group they start
 * together, cheaply, but the kernel throttles a whole group with one of
 * its timers (dt_prov_profile.c), and restarting them cost a tick-1s
 * beside profile-4999hz its firing (1 s late) in one run in twenty.
 * Started one at a time, each costs a reschedule of the CPU's others:
 * 256 timers about 15 ms, 3,000 timers 2.3 s.
 */
#define DT_TIMER_GROUP_MIN 256

int dt_timer_group(dtrace_hdl_t *dtp, int cpu, bool fast)
{
	dt_run_t *r = dtp->dt_run;
	int g, at = 2 * cpu + fast;

	if (r == NULL || cpu < 0 || cpu >= r->r_ld.ld_ncpus)
		return -1;
	if (r->r_ld.ld_ntimers <= DT_TIMER_GROUP_MIN)
		return -1;
	if (r->r_ld.ld_tgroup == NULL &&
	    (r->r_ld.ld_tgroup = calloc(2 * (size_t)r->r_ld.ld_ncpus, sizeof(int))) == NULL)
		return -1;
	if (r->r_ld.ld_tgroup[at] > 0)
		return r->r_ld.ld_tgroup[at] - 1;
	if ((g = ks_timer_group(cpu)) < 0)
		return -1;
	/* made after the start (a later attach): started now */
	if (r->r_ld.ld_tstarted && ks_timer_group_start(g) != 0) {
		close(g);
		return -1;
	}
	r->r_ld.ld_tgroup[at] = g + 1;
	return g;
}

/* Start every CPU's timers: 0, or -1 with the handle's error. */
static int timers_start(dtrace_hdl_t *dtp, dt_run_t *r)
{
	r->r_ld.ld_tstarted = true;
	for (int c = 0; r->r_ld.ld_tgroup != NULL && c < 2 * r->r_ld.ld_ncpus; c++) {
		int err;

		if (r->r_ld.ld_tgroup[c] > 0 &&
		    (err = ks_timer_group_start(r->r_ld.ld_tgroup[c] - 1)) != 0)
			return dt_set_errmsg(dtp, err == -EPERM ? EDT_NOPRIV : EDT_ENABLING,
					     "cannot start the timers of CPU %d: %s", c / 2,
					     strerror(-err));
	}
	return 0;
}

/* Attach r_progs[k] as its provider does. */
static int attach(dtrace_hdl_t *dtp, dt_run_t *r, size_t k)
{
	dt_bprog_t *bp = &r->r_ld.ld_progs[k];
	const dt_provimpl_t *pv = dt_probe_prov(dtp, bp->bp_probe);
	size_t first = r->r_ld.ld_links.ln_n;
	/* a group's sites may be its probes' (pid: a uprobe_multi link, cookies = keys) */
	int rc = bp->bp_group != NULL && pv->pv_attach_group != NULL
		     ? pv->pv_attach_group(dtp, bp->bp_probes, bp->bp_keys, bp->bp_nprobes,
					   bp->bp_fd, bp->bp_attach_type, &r->r_ld.ld_links)
		     : pv->pv_attach(dtp, bp->bp_probe, bp->bp_argspec, bp->bp_fd,
				     bp->bp_attach_type, r->r_ld.ld_ncpus, &r->r_ld.ld_links);

	bp->bp_link0 = first;
	bp->bp_nlinks = r->r_ld.ld_links.ln_n - first;
	return rc;
}

/*
 * Remove from the table the probes whose objects have been gone for 2 s,
 * with their ECBs (their EPIDs are taken again by later ones), their
 * closed programs and the places of their links.  Safe because nothing of
 * them can come any more: their programs were closed a second or more ago
 * (the consumer has drained the buffers since, dtrace_work reading them
 * after each rescan), their links are closed (ks_detach_done), and no
 * speculation holds a record of theirs (it would print it at its commit).
 */
static void forget_gone(dtrace_hdl_t *dtp, dt_run_t *r, uint64_t now)
{
	const char *path = NULL;
	size_t n = dtp->dt_nprobes, *newidx, k, j, nlinks, ndrop = 0;
	bool gone = false, *drop;

	if ((drop = calloc(n ? n : 1, sizeof(*drop))) == NULL)
		return;
	for (size_t p = 0; p < n; p++) {
		dt_pinfo_t *pi = &dtp->dt_pinfo[p];

		if (pi->pi_prov->pv_gone == NULL)
			continue;
		/* the probes of one file share its path: asked once */
		if (pi->pi_path == NULL || pi->pi_path != path)
			gone = pi->pi_prov->pv_gone(dtp, p);
		path = pi->pi_path;
		if (!gone)
			pi->pi_gone = 0;
		else if (pi->pi_gone == 0)
			pi->pi_gone = now;
		else
			ndrop += drop[p] = now - pi->pi_gone >= 2000000000ULL;
	}
	/* a probe stays while a program of it (a group's too) can still be heard from */
	for (k = 0; k < r->r_ld.ld_nprogs && ndrop > 0; k++) {
		const dt_bprog_t *bp = &r->r_ld.ld_progs[k];
		bool live = bp->bp_fd >= 0 || now - bp->bp_closed < 1000000000ULL ||
			    !ks_detach_done(bp->bp_detseq);

		for (size_t i = 0; live && i < (bp->bp_nprobes ? bp->bp_nprobes : 1); i++) {
			size_t p = bp->bp_nprobes ? bp->bp_probes[i] : bp->bp_probe;

			if (p < n && drop[p]) {
				drop[p] = false;
				ndrop--;
			}
		}
	}
	/* and while a speculation holds a record of it, to print at its commit */
	for (uint64_t s = 0; r->r_dr.dr_spec != NULL && s < r->r_ld.ld_nspec && ndrop > 0; s++)
		for (const dt_specrec_t *sr = r->r_dr.dr_spec[s].sb_head; sr != NULL;
		     sr = sr->sr_next) {
			uint32_t epid;
			size_t p;

			memcpy(&epid, sr->sr_data, sizeof(epid));
			if (epid == 0 || epid > r->r_en.en_necbs ||
			    (p = r->r_en.en_ecbs[epid - 1].e_probe) >= n || !drop[p])
				continue;
			drop[p] = false;
			ndrop--;
		}
	if (ndrop == 0 || (newidx = malloc(n * sizeof(*newidx))) == NULL) {
		free(drop);
		return;
	}
	dt_probe_remove(dtp, drop, newidx);
	for (uint32_t e = 0; e < r->r_en.en_necbs; e++) {
		dt_ecb_t *ecb = &r->r_en.en_ecbs[e];

		if (ecb->e_probe == DT_ECB_FREE)
			continue;
		if ((ecb->e_probe = newidx[ecb->e_probe]) == DT_ECB_FREE) {
			ecb->e_stmt = NULL;
			r->r_en.en_nfree++;
		}
	}
	/* the programs of removed probes go, and the places of closed links */
	for (k = j = nlinks = 0; k < r->r_ld.ld_nprogs; k++) {
		dt_bprog_t bp = r->r_ld.ld_progs[k];

		if (newidx[bp.bp_probe] == SIZE_MAX) {
			if (bp.bp_tabfd >= 0)
				close(bp.bp_tabfd);
			free(bp.bp_probes);
			free(bp.bp_keys);
			continue;
		}
		bp.bp_probe = newidx[bp.bp_probe];
		/* a group's other probes: SIZE_MAX for those gone (nothing reads them after attach) */
		for (size_t i = 0; i < bp.bp_nprobes; i++)
			if (bp.bp_probes[i] != SIZE_MAX) /* removed by an earlier pass */
				bp.bp_probes[i] = newidx[bp.bp_probes[i]];
		r->r_ld.ld_progs[j++] = bp;
	}
	r->r_ld.ld_nprogs = j;
	/* newidx again, now for links: where each one goes (they keep their order) */
	if (r->r_ld.ld_links.ln_n > n) {
		free(newidx);
		if ((newidx = malloc(r->r_ld.ld_links.ln_n * sizeof(*newidx))) == NULL) {
			free(drop);
			return;
		}
	}
	for (size_t i = 0; i < r->r_ld.ld_links.ln_n; i++) {
		newidx[i] = nlinks;
		if (r->r_ld.ld_links.ln_fds[i] >= 0)
			r->r_ld.ld_links.ln_fds[nlinks++] = r->r_ld.ld_links.ln_fds[i];
	}
	for (k = 0; k < r->r_ld.ld_nprogs; k++)
		if (r->r_ld.ld_progs[k].bp_nlinks > 0)
			r->r_ld.ld_progs[k].bp_link0 = newidx[r->r_ld.ld_progs[k].bp_link0];
	r->r_ld.ld_links.ln_n = nlinks;
	free(newidx);
	free(drop);
}

/*
 * Close the programs and links of probes whose objects are gone (a
 * runtime provider destroyed, a library's file removed), at most once a
 * second: a tracer that stays while providers come and go keeps only
 * what can still fire.  A gone probe leaves the table (forget_gone) once
 * nothing of it can be in the buffers any more.
 */
static void release_gone(dtrace_hdl_t *dtp, dt_run_t *r)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	if (now - r->r_ld.ld_lastgone < 1000000000ULL)
		return;
	r->r_ld.ld_lastgone = now;
	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++) {
		dt_bprog_t *bp = &r->r_ld.ld_progs[k];
		const dt_provimpl_t *pv = dt_probe_prov(dtp, bp->bp_probe);

		if (bp->bp_fd < 0 || pv->pv_gone == NULL || !pv->pv_gone(dtp, bp->bp_probe))
			continue;
		/* a uprobe's detach waits for a grace period: not here */
		bp->bp_detseq =
		    ks_detach_later(r->r_ld.ld_links.ln_fds + bp->bp_link0, bp->bp_nlinks);
		for (size_t i = bp->bp_link0; i < bp->bp_link0 + bp->bp_nlinks; i++)
			r->r_ld.ld_links.ln_fds[i] = -1;
		bp->bp_nlinks = 0;
		close(bp->bp_fd);
		bp->bp_fd = -1;
		bp->bp_closed = now;
	}
	forget_gone(dtp, r, now);
}
/* Where each DT_TOFF_* is: a member path in a kernel struct, indexed by an enumerator or not. */
static const struct {
	dt_toff_t t_off;
	const char *t_struct, *t_path, *t_enum, *t_index;
} toffs[] = {
	{ DT_TOFF_REAL_PARENT, "task_struct", "real_parent", NULL, NULL },
	{ DT_TOFF_TGID, "task_struct", "tgid", NULL, NULL },
	{ DT_TOFF_SUM_EXEC, "task_struct", "se.sum_exec_runtime", NULL, NULL },
	{ DT_TOFF_GROUP_LEADER, "task_struct", "group_leader", NULL, NULL },
	{ DT_TOFF_COMM, "task_struct", "comm", NULL, NULL },
	{ DT_TOFF_CRED, "task_struct", "cred", NULL, NULL },
	{ DT_TOFF_EUID, "cred", "euid", NULL, NULL },
	{ DT_TOFF_EGID, "cred", "egid", NULL, NULL },
	{ DT_TOFF_SIGNAL, "task_struct", "signal", NULL, NULL },
	{ DT_TOFF_NR_THREADS, "signal_struct", "nr_threads", NULL, NULL },
	{ DT_TOFF_PGID_PID, "signal_struct", "pids", "pid_type", "PIDTYPE_PGID" },
	{ DT_TOFF_SID_PID, "signal_struct", "pids", "pid_type", "PIDTYPE_SID" },
	{ DT_TOFF_PID_NR, "pid", "numbers[0].nr", NULL, NULL },
	{ DT_TOFF_MM, "task_struct", "mm", NULL, NULL },
	{ DT_TOFF_ARG_START, "mm_struct", "arg_start", NULL, NULL },
	{ DT_TOFF_ARG_END, "mm_struct", "arg_end", NULL, NULL },
	{ DT_TOFF_FS, "task_struct", "fs", NULL, NULL },
	{ DT_TOFF_PWD_DENTRY, "fs_struct", "pwd.dentry", NULL, NULL },
	{ DT_TOFF_PWD_MNT, "fs_struct", "pwd.mnt", NULL, NULL },
	{ DT_TOFF_ROOT_DENTRY, "fs_struct", "root.dentry", NULL, NULL },
	{ DT_TOFF_ROOT_MNT, "fs_struct", "root.mnt", NULL, NULL },
	{ DT_TOFF_D_PARENT, "dentry", "d_parent", NULL, NULL },
	{ DT_TOFF_D_NAME, "dentry", "d_name.name", NULL, NULL },
	{ DT_TOFF_MNT_ROOT, "vfsmount", "mnt_root", NULL, NULL },
	{ DT_TOFF_MOUNT_MNT, "mount", "mnt", NULL, NULL },
	{ DT_TOFF_MNT_PARENT, "mount", "mnt_parent", NULL, NULL },
	{ DT_TOFF_MNT_MOUNTPT, "mount", "mnt_mountpoint", NULL, NULL },
	{ DT_TOFF_FSBASE, "task_struct", "thread.fsbase", NULL, NULL },
	{ DT_TOFF_GSBASE, "task_struct", "thread.gsbase", NULL, NULL },
	{ DT_TOFF_TI_STATUS, "task_struct", "thread_info.status", NULL, NULL },
	{ DT_TOFF_PID, "task_struct", "pid", NULL, NULL },
	{ DT_TOFF_EXIT_CODE, "task_struct", "exit_code", NULL, NULL },
	{ DT_TOFF_SA_HANDLER, "k_sigaction", "sa.sa_handler", NULL, NULL },
	{ DT_TOFF_FLAGS, "task_struct", "flags", NULL, NULL },
	{ DT_TOFF_STATE, "task_struct", "__state", NULL, NULL },
	{ DT_TOFF_PRIO, "task_struct", "prio", NULL, NULL },
	{ DT_TOFF_NORMAL_PRIO, "task_struct", "normal_prio", NULL, NULL },
	{ DT_TOFF_HRTIMER_FN, "hrtimer", "function", NULL, NULL },
};

void dt_task_offsets(dt_run_t *r)
{
	ks_btf_t *btf;

	for (int i = 0; i < DT_TOFF_N; i++)
		r->r_ld.ld_off[i] = -1;
	if (ks_btf_open(&btf) != 0)
		return;
	for (size_t i = 0; i < sizeof(toffs) / sizeof(toffs[0]); i++) {
		const char *path = toffs[i].t_path;
		char indexed[128];
		int64_t ix;
		int off;

		if (toffs[i].t_enum != NULL) { /* pids[PIDTYPE_PGID] */
			if (ks_btf_enum_value(btf, toffs[i].t_enum, toffs[i].t_index, &ix) != 0)
				continue;
			snprintf(indexed, sizeof(indexed), "%s[%lld]", path, (long long)ix);
			path = indexed;
		}
		off = ks_btf_member_offset(btf, toffs[i].t_struct, path);
		r->r_ld.ld_off[toffs[i].t_off] = off >= 0 ? off : -1;
	}
	ks_btf_close(btf);
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int set_activity(dt_run_t *r, uint64_t want, uint64_t from)
{
	uint32_t key = 0;
	uint8_t *v = calloc(1, r->r_ld.ld_layout.ly_state);
	uint64_t cur;
	int rc = -1;

	if (v == NULL)
		return -1;
	/* the state value is also the globals: read, change the header, write back */
	if (ks_map_lookup(r->r_ld.ld_fd[DT_MAP_STATE], &key, v) == 0) {
		memcpy(&cur, v + DT_ST_ACTIVITY, 8);
		if (from == 0 || cur == from) {
			memcpy(v + DT_ST_ACTIVITY, &want, 8);
			rc = ks_map_update(r->r_ld.ld_fd[DT_MAP_STATE], &key, v, BPF_ANY);
		} else {
			rc = 0;
		}
	}
	free(v);
	return rc;
}

/* A map's max_entries for a budget of max entries: 1 to 2^26. */
static uint32_t entries(uint64_t max)
{
	return (uint32_t)(max < 1 ? 1 : max > (1u << 26) ? 1u << 26 : max);
}

static int map_err(dtrace_hdl_t *dtp, int fd, const char *what)
{
	return dt_set_errmsg(dtp, fd == -EPERM ? EDT_NOPRIV : EDT_ENABLING, "cannot create %s: %s",
			     what, strerror(-fd));
}

static int agg_maps(dtrace_hdl_t *dtp, dt_run_t *r);

/* ---------------------------------------------------------------- user stacks */

#define DT_UNW_MAXPROCS 1024 /* processes with tables at once (2.5 KiB each) */
#define DT_UNW_MAXREQ	4096 /* processes asking for them */

/*
 * The unwind tables' maps, for a program that walks user stacks: the rows
 * (unwindsize bytes, 16 MiB by default: about ten python-sized processes,
 * shared libraries counted once), the processes' entries, and the
 * walker's requests, whose key 0 the consumer makes (it counts what a
 * full map could not take).
 */
static int unwind_maps(dtrace_hdl_t *dtp, dt_run_t *r)
{
	uint64_t size = dt_option_get(dtp, "unwindsize", 16 << 20), zero = 0;
	uint32_t key = 0;
	int *fd = r->r_ld.ld_fd, err;

	if (size / sizeof(dt_unw_row_t) < 2 || size / sizeof(dt_unw_row_t) > UINT32_MAX)
		return dt_set_errmsg(dtp, EDT_BADOPTVAL, "unwindsize %llu: 32 bytes to 64 GiB",
				     (unsigned long long)size);
	if ((r->r_ld.ld_unw = dt_unw_create((uint32_t)(size / sizeof(dt_unw_row_t)))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if ((err = dt_unw_maps_create(r->r_ld.ld_unw, DT_UNW_MAXPROCS)) != 0)
		return map_err(dtp, err, "the unwind tables");
	fd[DT_MAP_UNW_ROWS] = fcntl(dt_unw_rows_fd(r->r_ld.ld_unw), F_DUPFD_CLOEXEC, 0);
	fd[DT_MAP_UNW_PROCS] = fcntl(dt_unw_procs_fd(r->r_ld.ld_unw), F_DUPFD_CLOEXEC, 0);
	if (fd[DT_MAP_UNW_ROWS] < 0 || fd[DT_MAP_UNW_PROCS] < 0)
		return map_err(dtp, -errno, "the unwind tables");
	fd[DT_MAP_UNW_REQ] = ks_map_create(BPF_MAP_TYPE_HASH, "dt_unw_req", 4, 8, DT_UNW_MAXREQ, 0);
	if (fd[DT_MAP_UNW_REQ] < 0)
		return map_err(dtp, fd[DT_MAP_UNW_REQ], "the unwind requests");
	if ((err = ks_map_update(fd[DT_MAP_UNW_REQ], &key, &zero, BPF_ANY)) != 0)
		return map_err(dtp, err, "the unwind requests");
	return 0;
}

/* The request entry of key, made if new (seen 0): NULL out of memory. */
static struct dt_unwreq *unwreq_of(dt_loaded_t *ld, uint32_t key)
{
	for (size_t i = 0; i < ld->ld_nunwreq; i++)
		if (ld->ld_unwreq[i].ur_key == key)
			return &ld->ld_unwreq[i];
	if (dt_grow(&ld->ld_unwreq, &ld->ld_unwreqcap, ld->ld_nunwreq, sizeof(*ld->ld_unwreq),
		    16) != 0)
		return NULL;
	ld->ld_unwreq[ld->ld_nunwreq] = (struct dt_unwreq){ .ur_key = key };
	return &ld->ld_unwreq[ld->ld_nunwreq++];
}

/*
 * Load the tables of pid: its files' rows and its entry.  A process gone,
 * or whose files do not fit (unwindsize), keeps being walked by frame
 * pointers, which the count of such stacks reports at the end.
 */
static void unwind_load(dtrace_hdl_t *dtp, dt_run_t *r, pid_t pid)
{
	(void)dt_unw_load_proc(r->r_ld.ld_unw, pid, NULL);
	dt_usym_remember(dtp, pid); /* its frames keep their names if it exits before a print */
}

/* The tables of pid, loaded before the walker asks: it is not asked again. */
static void unwind_first(dtrace_hdl_t *dtp, dt_run_t *r, pid_t pid)
{
	struct dt_unwreq *q = unwreq_of(&r->r_ld, (uint32_t)pid);

	unwind_load(dtp, r, pid);
	if (q != NULL)
		q->ur_at = clock_ns(CLOCK_MONOTONIC);
}

/*
 * Serve the walker's requests: a process it walked without tables gets
 * them (once: a process they cannot be made for would ask at every
 * stack), a process with a PC outside its mappings (dlopen, exec) has
 * them read again, at most once a second.
 */
int dt_load_unwind(dtrace_hdl_t *dtp, dt_run_t *r)
{
	dt_loaded_t *ld = &r->r_ld;
	uint32_t key, next, *prev = NULL;
	uint64_t now = 0;

	if (ld->ld_unw == NULL || ld->ld_fd[DT_MAP_UNW_REQ] < 0)
		return 0;
	while (ks_map_next_key(ld->ld_fd[DT_MAP_UNW_REQ], prev, &next) == 0) {
		struct dt_unwreq *q;
		uint64_t count = 0;

		key = next;
		prev = &key;
		if (ks_map_lookup(ld->ld_fd[DT_MAP_UNW_REQ], &key, &count) != 0 ||
		    (q = unwreq_of(ld, key)) == NULL || count == q->ur_count)
			continue;
		if (now == 0)
			now = clock_ns(CLOCK_MONOTONIC);
		if (key == 0) {
			q->ur_count = count;
		} else if (!(key & DT_UNW_REQ_REMAP)) {
			if (q->ur_at == 0)
				unwind_load(dtp, r, (pid_t)key);
			q->ur_count = count;
			q->ur_at = now;
		} else if (now - q->ur_at >= 1000000000ULL) {
			unwind_load(dtp, r, (pid_t)(key & ~DT_UNW_REQ_REMAP));
			q->ur_count = count;
			q->ur_at = now;
		}
	}
	(void)dtp;
	return 0;
}

uint64_t dt_load_unwind_fponly(dtrace_hdl_t *dtp, dt_run_t *r)
{
	uint64_t n = 0;

	(void)dt_load_unwind(dtp, r);
	for (size_t i = 0; i < r->r_ld.ld_nunwreq; i++)
		if (!(r->r_ld.ld_unwreq[i].ur_key & DT_UNW_REQ_REMAP))
			n += r->r_ld.ld_unwreq[i].ur_count;
	return n;
}

/*
 * dt_ticks, when a tick probe is enabled: an element for each tick probe
 * (its pi_key: its place among them), holding its period and when its
 * program last ran, from which the program counts firings lost
 * (dt_prov_profile.c, entry).  Its fd stays -1 when none is enabled.
 */
static int tick_map(dtrace_hdl_t *dtp, dt_run_t *r)
{
	uint32_t n = 0, key;
	bool enabled = false;
	int fd;

	for (uint32_t i = 0; i < r->r_en.en_necbs; i++) {
		size_t p = r->r_en.en_ecbs[i].e_probe;

		if (p != DT_ECB_FREE && dt_probe_is(dtp, p, DT_PK_TICK))
			enabled = true;
	}
	if (!enabled)
		return 0;
	for (size_t p = 0; p < dtp->dt_nprobes; p++)
		if (dt_probe_is(dtp, p, DT_PK_TICK))
			dtp->dt_pinfo[p].pi_key = n++;
	if ((fd = ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_ticks", 4, sizeof(dt_tick_t), n, 0)) < 0)
		return map_err(dtp, fd, "the BPF maps");
	r->r_ld.ld_fd[DT_MAP_TICKS] = fd;
	for (size_t p = 0; p < dtp->dt_nprobes; p++) {
		dt_tick_t tk = { .tk_period = dtp->dt_pinfo[p].pi_period };
		int err;

		if (!dt_probe_is(dtp, p, DT_PK_TICK))
			continue;
		key = dtp->dt_pinfo[p].pi_key;
		if ((err = ks_map_update(fd, &key, &tk, BPF_ANY)) != 0)
			return map_err(dtp, err, "the BPF maps");
	}
	return 0;
}

static int create_maps(dtrace_hdl_t *dtp, dt_run_t *r)
{
	const dt_layout_t *ly = &r->r_ld.ld_layout;
	const dt_pstate_t *ps = r->r_en.en_ps;
	uint64_t dyn = dt_option_get(dtp, "dynvarsize", 1 << 20);
	uint32_t entry = ly->ly_keysize + ly->ly_valsize + 64;
	uint32_t n = (uint32_t)(dyn / entry > 1 ? dyn / entry : 1), zero;
	int *fd = r->r_ld.ld_fd;

	fd[DT_MAP_STATE] = ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_state", 4, ly->ly_state, 1, 0);
	fd[DT_MAP_SCRATCH] =
	    ks_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_scratch", 4, ly->ly_scratch, 1, 0);
	fd[DT_MAP_DVARS] =
	    ks_map_create(BPF_MAP_TYPE_HASH, "dt_dvars", ly->ly_keysize, ly->ly_valsize, n, 0);
	fd[DT_MAP_EVENTS] = ks_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "dt_events", 4, 4,
					  (uint32_t)r->r_ld.ld_ncpus, 0);
	fd[DT_MAP_DROPS] =
	    ks_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_drops", 4, 8 * DT_DROP_NKINDS, 1, 0);
	/*
	 * dt_spec: one value, a u64 slot per speculation (at least one: nspec=0
	 * takes none), mapped by the consumer, which frees closed slots with
	 * compare-and-exchange as the programs take them
	 */
	fd[DT_MAP_SPEC] = ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_spec", 4,
					8 * (r->r_ld.ld_nspec > 0 ? (uint32_t)r->r_ld.ld_nspec : 1),
					1, BPF_F_MMAPABLE);
	if (ps->ps_use_errno) /* the least recently seen threads make room */
		fd[DT_MAP_ERRNO] = ks_map_create(BPF_MAP_TYPE_LRU_HASH, "dt_errno", 4, 4, 16384, 0);
	/*
	 * dt_zero: the zeroed value new aggregation entries and struct
	 * elements are made from.  Aggregations: entries made as keys appear,
	 * up to aggsize bytes of keys and values per CPU.  An entry's value is
	 * every CPU's value in CPU order (the layout a per-CPU map's lookup
	 * gives), in a plain hash: a per-CPU hash allocates per-CPU memory for
	 * each new key, 3 us a key against 0.5 us here (bench/agg_bench.py).
	 * The price: CPUs that hit the same key at once share its cache lines.
	 */
	zero = ps->ps_aggzero * (uint32_t)r->r_ld.ld_ncpus;
	if (r->r_en.en_naggs > 0 || ps->ps_nsouvars > 0)
		fd[DT_MAP_ZERO] =
		    ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_zero", 4,
				  zero > ps->ps_sousize ? zero : ps->ps_sousize, 1, 0);
	if (ps->ps_use_ustack && unwind_maps(dtp, r) != 0)
		return -1;
	if (tick_map(dtp, r) != 0)
		return -1;
	for (int i = 0; i < DT_MAP_NFIXED; i++) {
		/* the unwind tables: only for a program that walks user stacks */
		if ((i == DT_MAP_UNW_ROWS || i == DT_MAP_UNW_PROCS || i == DT_MAP_UNW_REQ) &&
		    !ps->ps_use_ustack)
			continue;
		if (i == DT_MAP_TICKS) /* made, or not needed (tick_map) */
			continue;
		if (fd[i] >= 0 || (i == DT_MAP_ERRNO && !ps->ps_use_errno) ||
		    (i == DT_MAP_ZERO && r->r_en.en_naggs == 0 && ps->ps_nsouvars == 0))
			continue;
		int err = fd[i];

		fd[i] = -1;
		return map_err(dtp, err, "the BPF maps");
	}
	if (ps->ps_nsouvars > 0 &&
	    (r->r_ld.ld_soufds = malloc(ps->ps_nsouvars * sizeof(*r->r_ld.ld_soufds))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < ps->ps_nsouvars; i++) {
		const dt_souvar_t *sv = &ps->ps_souvars[i];
		uint64_t max = dyn / (ly->ly_keysize + sv->sv_size + 64);
		char name[16];

		snprintf(name, sizeof(name), "dt_sou%u", sv->sv_id);
		r->r_ld.ld_soufds[i] = ks_map_create(BPF_MAP_TYPE_HASH, name, ly->ly_keysize,
						     sv->sv_size, entries(max), 0);
		r->r_ld.ld_nsoufds++;
		if (r->r_ld.ld_soufds[i] < 0)
			return map_err(dtp, r->r_ld.ld_soufds[i], "the map of a struct variable");
	}
	return agg_maps(dtp, r);
}

/*
 * The aggregations' maps: one hash per shape (key and value sizes), which
 * every aggregation of that shape shares, its key the aggregation's id
 * then its keys (dt_program.h).  A program names one map per shape, so
 * the kernel's 64 maps a program are no limit, and an update finds its
 * map without a lookup.  aggsize is as illumos's: one budget per CPU for
 * every aggregation (an entry costs its keys and one CPU's value; the id
 * is ours), split among the shapes as their aggregations are: a shape of
 * k of the n aggregations may hold k/n of it.  The entries are allocated
 * when the map is made, as illumos allocates aggsize on each CPU when it
 * enables: a map allocating as keys appear takes them from a small cache
 * per CPU that a probe in an interrupt cannot refill, and four new keys in
 * one firing of a tick probe were all it could make.  (One map per
 * aggregation, each of aggsize, made 50,000 aggregations ask for 200 GiB:
 * a hash map's table of buckets is allocated when it is made.)
 */
static int agg_maps(dtrace_hdl_t *dtp, dt_run_t *r)
{
	uint32_t n = r->r_en.en_naggs, nshapes = 0;
	uint64_t aggsize = dt_option_get(dtp, "aggsize", 4 << 20);
	uint32_t *shape = NULL, *first = NULL, *count = NULL; /* by aggregation; by shape */
	int rc = 0;

	if (n == 0)
		return 0;
	if ((r->r_ld.ld_aggfds = malloc(n * sizeof(int))) == NULL ||
	    (r->r_ld.ld_shapefds = malloc(n * sizeof(int))) == NULL ||
	    (shape = malloc(n * sizeof(uint32_t))) == NULL ||
	    (first = malloc(n * sizeof(uint32_t))) == NULL ||
	    (count = calloc(n, sizeof(uint32_t))) == NULL) {
		rc = dt_set_errno(dtp, EDT_NOMEM);
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		const dt_agg_t *ag = r->r_en.en_aggs[i];
		uint32_t s = 0;

		while (s < nshapes && (r->r_en.en_aggs[first[s]]->ag_keysize != ag->ag_keysize ||
				       r->r_en.en_aggs[first[s]]->ag_valsize != ag->ag_valsize))
			s++;
		if (s == nshapes)
			first[nshapes++] = i;
		shape[i] = s;
		count[s]++;
	}
	for (uint32_t s = 0; s < nshapes; s++) {
		const dt_agg_t *ag = r->r_en.en_aggs[first[s]];
		uint64_t each = ag->ag_keysize + (uint64_t)ag->ag_valsize; /* aggsize is per CPU */
		uint64_t max = (uint64_t)((unsigned __int128)aggsize * count[s] / n / each);
		char name[24];
		int fd;

		snprintf(name, sizeof(name), "dt_agg%u", s);
		fd = ks_map_create(BPF_MAP_TYPE_HASH, name, DT_AGG_IDSIZE + ag->ag_keysize,
				   ag->ag_valsize * (uint32_t)r->r_ld.ld_ncpus, entries(max), 0);
		if (fd < 0) {
			rc = map_err(dtp, fd, "the map of an aggregation");
			goto out;
		}
		r->r_ld.ld_shapefds[r->r_ld.ld_nshapes++] = fd;
	}
	for (uint32_t i = 0; i < n; i++)
		r->r_ld.ld_aggfds[i] = r->r_ld.ld_shapefds[shape[i]];
out:
	free(shape);
	free(first);
	free(count);
	return rc;
}

/*
 * errno: what the thread's last system call returned, kept by a program
 * on the sys_exit raw tracepoint (every thread's system calls pay for a
 * lookup while it is attached, so only when a clause reads errno).
 */
static int errno_watch(dtrace_hdl_t *dtp, dt_run_t *r)
{
	dt_frag_t prog = { 0 };
	ks_code_t code;
	char log[4096];
	int fd, link;

	if (!r->r_en.en_ps->ps_use_errno)
		return 0;
	if (dt_link_errno(dtp, r, &prog) != 0) {
		dt_frag_free(&prog);
		return -1;
	}
	code = (ks_code_t){ prog.fr_insns, prog.fr_len,	  prog.fr_cap,
			    false,	   prog.fr_gfunc, prog.fr_gsize };
	fd = ks_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "dtrace_errno", &code, log, sizeof(log));
	dt_frag_free(&prog);
	if (fd < 0)
		return dt_set_errmsg(dtp, fd == -EPERM ? EDT_NOPRIV : EDT_ENABLING,
				     "cannot load the program of errno: %s: %s", strerror(-fd),
				     log);
	link = ks_attach_raw_tp(fd, "sys_exit");
	close(fd); /* the link holds it */
	if (link < 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot watch system calls for errno: %s",
				     strerror(-link));
	return dt_links_add(dtp, &r->r_ld.ld_links, link);
}

/*
 * Probes fired right after a runtime provider is enabled.  In illumos a
 * process registers its providers with an ioctl (DTRACEHIOC_ADDDOF), and
 * dtrace_helper_provide() rematches the retained enablings
 * (dtrace_enabling_matchall) before the ioctl returns, so a process that
 * enables a provider and fires at once loses nothing.  Here libusdt's
 * enable() asks the same: it reads the semaphore of its own probe
 * libusdt:::provider-enabled and, when a tracer is attached there, fires it
 * with the address of a word and waits (at most 1 s, and only while the
 * semaphore stays up) until each attached tracer has added one to the word.
 * A run whose target may still gain matching providers attaches the program
 * below there: it sends the word's address to the consumer, which rescans
 * the target, attaches the new probes and then acknowledges (dt_load_ack).
 * A tracer that dies detaches, the semaphore falls, and the target goes on
 * at once.  docs/libusdt.md has the whole protocol.
 */
static bool could_grow(dtrace_hdl_t *dtp, dt_run_t *r)
{
	char pid[16];
	size_t np;

	if (r->r_tg.tg_child && dt_option_isset(dtp, "zdefs")) /* it waits for us: dt_proc.c */
		return true;
	snprintf(pid, sizeof(pid), "%d", (int)r->r_tg.tg_pid);
	np = strlen(pid);
	for (int s = 0; s < r->r_en.en_nstmts; s++)
		for (dt_node_t *pd = r->r_en.en_stmts[s]->st_clause->dn_pdescs; pd != NULL;
		     pd = pd->dn_next) {
			dtrace_probedesc_t d;
			size_t n;

			if (dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, pd->dn_name, &d) != 0)
				continue;
			n = strlen(d.dtpd_provider);
			/* a bare name (BEGIN, tick-1s) is not taken to wait for a provider */
			if (n == 0 && d.dtpd_mod[0] == '\0' && d.dtpd_func[0] == '\0' &&
			    strpbrk(d.dtpd_name, "*?[\\") == NULL)
				continue;
			/* empty, a pattern, or a provider of the target: myapp$target */
			if (n == 0 || strpbrk(d.dtpd_provider, "*?[\\") != NULL ||
			    (n > np && strcmp(d.dtpd_provider + n - np, pid) == 0))
				return true;
		}
	return false;
}

static int hook_attach(dtrace_hdl_t *dtp, dt_run_t *r)
{
	char prov[DTRACE_PROVNAMELEN], log[4096];
	const dt_pinfo_t *pi = NULL;
	int regoff, width, fd, link;
	ks_code_t code = { 0 };
	bool multi;

	if (r->r_ld.ld_hooked || r->r_tg.tg_pid <= 0 || !could_grow(dtp, r))
		return 0;
	snprintf(prov, sizeof(prov), "libusdt%d", (int)r->r_tg.tg_pid);
	/*
	 * The target's USDT probes are read from now on (its rescans): a
	 * -Z -c child waits for the hook at its first enable even when no
	 * description has read them yet (BEGIN alone).
	 */
	if (dt_probe_provide_named(dtp, prov, NULL) != 0)
		return -1;
	for (size_t i = 0; pi == NULL && i < dtp->dt_nprobes; i++)
		if (dtp->dt_pinfo[i].pi_kind == DT_PK_USDT &&
		    dtp->dt_pinfo[i].pi_pid == r->r_tg.tg_pid &&
		    dtp->dt_pinfo[i].pi_sites != NULL &&
		    strcmp(dtp->dt_probes[i].dtpd_provider, prov) == 0 &&
		    strcmp(dtp->dt_probes[i].dtpd_name, "provider-enabled") == 0)
			pi = &dtp->dt_pinfo[i];
	if (pi == NULL) /* not (yet) a libusdt process */
		return 0;
	if ((regoff = ks_reg_offset("%rdi", &width)) < 0)
		return 0;
	{
		const struct bpf_insn insns[] = {
			KS_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_1, (int16_t)regoff), /* arg0 */
			KS_ST_MEM(BPF_W, BPF_REG_10, -16, (int32_t)DT_EPID_HOOK),
			KS_ST_MEM(BPF_W, BPF_REG_10, -12, 0),
			KS_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_6, -8),
			KS_LD_MAP_FD(BPF_REG_2, r->r_ld.ld_fd[DT_MAP_EVENTS]),
			KS_LD_IMM64(BPF_REG_3, BPF_F_CURRENT_CPU),
			KS_MOV64_REG(BPF_REG_4, BPF_REG_10),
			KS_ALU64_IMM(BPF_ADD, BPF_REG_4, -16),
			KS_MOV64_IMM(BPF_REG_5, 16),
			KS_CALL(BPF_FUNC_perf_event_output), /* r1 is still the context */
			KS_MOV64_IMM(BPF_REG_0, 0),
			KS_EXIT(),
		};

		ks_emit(&code, insns, sizeof(insns) / sizeof(insns[0]));
	}
	if (code.kc_oom) {
		ks_code_free(&code);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	/*
	 * A uprobe_multi link binds the program as it raises the semaphore; a
	 * perf-event uprobe raises it first, and a fire in between is lost
	 * (libusdt announces again every 100 ms for that)
	 */
	multi = ks_features()->kf_uprobe_multi;
	fd = ks_prog_load(BPF_PROG_TYPE_KPROBE, multi ? KS_UPROBE_MULTI : 0, "dtrace_hook", &code,
			  log, sizeof(log));
	ks_code_free(&code);
	if (fd < 0)
		return dt_set_errmsg(
		    dtp, fd == -EPERM ? EDT_NOPRIV : EDT_ENABLING,
		    "cannot load the program of libusdt:::provider-enabled: %s: %s", strerror(-fd),
		    log);
	link = multi ? ks_attach_uprobes(fd, pi->pi_path, &pi->pi_sites->us_off,
					 &pi->pi_sites->us_refoff, NULL, 1, r->r_tg.tg_pid)
		     : ks_attach_uprobe(fd, pi->pi_path, pi->pi_sites->us_off,
					pi->pi_sites->us_refoff, false, r->r_tg.tg_pid);
	close(fd);			       /* the link holds it */
	if (link == -ESRCH || link == -ENOENT) /* the target has gone */
		return 0;
	if (link < 0)
		return dt_set_errmsg(
		    dtp, EDT_ENABLING,
		    "cannot attach to libusdt:::provider-enabled of process %d: %s",
		    (int)r->r_tg.tg_pid, strerror(-link));
	r->r_ld.ld_hooked = true;
	return dt_links_add(dtp, &r->r_ld.ld_links, link);
}

int dt_load_ack(dtrace_hdl_t *dtp, dt_run_t *r)
{
	int rc = dt_load_rescan(dtp, r);

	/* acknowledged even when the rescan failed: the target must go on */
	for (size_t i = 0; i < r->r_dr.dr_nacks; i++) {
		uint32_t v;
		struct iovec mine = { &v, sizeof(v) },
			     its = { (void *)(uintptr_t)r->r_dr.dr_acks[i], sizeof(v) };

		if (process_vm_readv(r->r_tg.tg_pid, &mine, 1, &its, 1, 0) != (ssize_t)sizeof(v))
			continue; /* gone, or it stopped waiting: a word of its stack */
		v++;
		(void)process_vm_writev(r->r_tg.tg_pid, &mine, 1, &its, 1, 0);
	}
	r->r_dr.dr_nacks = 0;
	return rc;
}

/*
 * Place the scratch regions after the largest record and size the values,
 * from what the compiled programs need.
 */
static int layout(dtrace_hdl_t *dtp, dt_run_t *r)
{
	const dt_pstate_t *ps = r->r_en.en_ps;
	dt_layout_t *ly = &r->r_ld.ld_layout;

	ly->ly_strsize = ps->ps_strsize;
	ly->ly_keysize = ps->ps_dynkeysize;
	ly->ly_valsize = ps->ps_valsize;
	dt_pstate_layout(ps, ly->ly_base, &ly->ly_scratch, &ly->ly_state);
	/* a group's program keeps the firing probe's table words at the end (dt_link.c) */
	ly->ly_group = ly->ly_scratch;
	ly->ly_scratch += (DT_GENT_EPID(r->r_en.en_nstmts) + 7) & ~7u;
	if (ly->ly_scratch > DT_VALUE_MAX || ly->ly_state > DT_VALUE_MAX) /* the compiler checks */
		return dt_set_errmsg(dtp, EDT_ENABLING,
				     "the program needs %u bytes of scratch and %u of variables: "
				     "more than %u (lower strsize?)",
				     ly->ly_scratch, ly->ly_state, DT_VALUE_MAX);
	return 0;
}

/*
 * Everything of dtrace_go before the kernel: options, the programs to
 * link, the layout.
 */
static int prepare(dtrace_hdl_t *dtp, dt_run_t *r)
{
	if ((r->r_en.en_ps = dtp->dt_pstate) == NULL || r->r_en.en_nstmts == 0)
		return dt_set_errmsg(dtp, EDT_NOTRACE, "no probes are enabled");
	r->r_en.en_aggs = r->r_en.en_ps->ps_aggs;
	r->r_en.en_naggs = r->r_en.en_ps->ps_naggs;
	r->r_dr.dr_json = dt_option_get(dtp, "oformat", DT_OFORMAT_TEXT) == DT_OFORMAT_JSON;
	r->r_dr.dr_folded = dt_option_get(dtp, "oformat", DT_OFORMAT_TEXT) == DT_OFORMAT_FOLDED;
	/* folded output is a file of stacks for flame graphs: no probe lines in it */
	r->r_dr.dr_quiet = dt_option_get(dtp, "quiet", 0) != 0 || r->r_dr.dr_folded;
	r->r_dr.dr_flow = dt_option_isset(dtp, "flowindent");
	if ((r->r_ld.ld_ncpus = ks_ncpus()) <= 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot count the CPUs");
	/* speculation() looks at every slot, and the verifier walks each look */
	r->r_ld.ld_nspec = dt_option_get(dtp, "nspec", 1);
	if (r->r_ld.ld_nspec > DT_SPEC_MAX)
		return dt_set_errmsg(dtp, EDT_ENABLING, "nspec is %llu: at most %u speculations",
				     (unsigned long long)r->r_ld.ld_nspec, DT_SPEC_MAX);
	/* the layout first: whether probes share programs depends on it */
	if (layout(dtp, r) != 0)
		return -1;
	return plan(dtp, r, 0);
}

/*
 * Linking without the kernel (the fuzzer of the back-end): every probe's
 * program as dtrace_go makes it, map fds -1, nothing loaded.
 */
int dt_load_link_all(dtrace_hdl_t *dtp)
{
	dt_run_t *r = dtp->dt_run;

	if (r == NULL || r->r_en.en_nstmts == 0)
		return dt_set_errmsg(dtp, EDT_NOTRACE, "no probes are enabled");
	if (r->r_ld.ld_started || r->r_ld.ld_nprogs > 0)
		return dt_set_errmsg(dtp, EDT_BADARG, "tracing has started already");
	if (prepare(dtp, r) != 0)
		return -1;
	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++)
		if (build(dtp, r, k, false) != 0)
			return -1;
	return 0;
}

/*
 * A USDT site's argument specification for dt_load_verify: each kind of
 * operand (registers of each width, constants, memory by base, index and
 * scale, a symbol relative to the probe's address) for the ten arguments argN reads.
 */
static const char verify_argspec[] = "-4@%edi 8@%rsi 4@$42 -8@-24(%rbp) 2@%ax 1@%cl "
				     "-8@16(%rsp,%rdx,8) 8@%r9 -4@(%rax) 8@-4096(%site)";

/*
 * copyout() and copyoutstr() write with bpf_probe_write_user, which a
 * kernel in lockdown refuses: say so before loading anything (EDT_WRITEUSER),
 * not with the verifier's "cannot use helper".
 */
static bool write_user_refused(dtrace_hdl_t *dtp, const dt_run_t *r)
{
	for (int i = 0; i < r->r_en.en_nstmts; i++)
		if (r->r_en.en_stmts[i]->st_writes_user && !ks_write_user_ok()) {
			dt_set_errno(dtp, EDT_WRITEUSER);
			return true;
		}
	return false;
}

/* Load one clause alone on probe p (a stand-in): 0, or -1 naming the clause. */
static int verify_on(dtrace_hdl_t *dtp, dt_run_t *r, dt_stmt_t *st, size_t p, const char *argspec,
		     const char *kind)
{
	dt_ecb_t *saved = r->r_en.en_ecbs, *ecbs;
	uint32_t nsaved = r->r_en.en_necbs, n = 0, attach_type, key = 0;
	const dt_loc_t *loc = &st->st_clause->dn_loc;
	const dt_provimpl_t *pv = dt_probe_prov(dtp, p);
	/* a probe of a group: alone in a group program (guard, table, clause) */
	dt_bprog_t bp = { .bp_probe = p,
			  .bp_argspec = argspec,
			  .bp_fd = -1,
			  .bp_probes = &p,
			  .bp_keys = &key,
			  .bp_nprobes = 1,
			  .bp_tabfd = -1 };
	dt_frag_t prog = { 0 };
	char what[512];
	int fd = -1, linked;

	/* the ERROR clauses stay: they are linked into every fault block */
	if ((ecbs = calloc(nsaved + 1, sizeof(*ecbs))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < nsaved; i++)
		if (dt_probe_is(dtp, saved[i].e_probe, DT_PK_ERROR))
			ecbs[n++] = saved[i];
	ecbs[n] = (dt_ecb_t){ .e_epid = nsaved + 1, .e_probe = p, .e_stmt = st };
	for (int s = 0; s < r->r_en.en_nstmts; s++)
		if (r->r_en.en_stmts[s] == st)
			ecbs[n].e_sidx = s;
	n++;
	r->r_en.en_ecbs = ecbs;
	r->r_en.en_necbs = n;
	snprintf(what, sizeof(what), "the clause at %s:%u:%u on a %s probe",
		 loc->file != NULL ? loc->file : "<program>", loc->line, loc->col, kind);
	if (pv->pv_group != NULL && pv->pv_guard != NULL &&
	    (bp.bp_group = pv->pv_group(dtp, p, &key)) != NULL)
		linked =
		    group_table(dtp, r, &bp, true) == 0 && dt_link_group(dtp, r, &bp, &prog) == 0;
	else
		linked = dt_link_probe(dtp, r, p, argspec, &prog) == 0;
	if (linked)
		fd = load(dtp, p, &prog, &attach_type, what);
	else {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dt_set_errmsg(dtp, dtrace_errno(dtp), "%s: %s", what, msg);
	}
	dt_frag_free(&prog);
	if (bp.bp_tabfd >= 0)
		close(bp.bp_tabfd);
	r->r_en.en_ecbs = saved;
	r->r_en.en_necbs = nsaved;
	free(ecbs);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/*
 * A stand-in tp_btf probe on sched_switch, added to t: its index, or 0
 * when the kernel has no tp_btf (or no memory: the check is skipped).
 */
static size_t tp_btf_standin(dt_ptab_t *t)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_fbt, .pi_kind = DT_PK_TP_BTF, .pi_ctxargs = 4 };
	ks_btf_t *btf;
	int id;

	if (!ks_features_tracing()->kf_tp_btf || ks_btf_open(&btf) != 0)
		return 0;
	id = ks_btf_id(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	ks_btf_close(btf);
	if (id <= 0)
		return 0;
	pi.pi_btf_id = (uint32_t)id;
	return dt_ptab_add(t, "verify", "", "", "tp_btf", &pi) == 0 ? t->pt_n - 1 : 0;
}

int dt_load_verify(dtrace_hdl_t *dtp)
{
	dt_run_t *r = dtp->dt_run;
	size_t begin = dtp->dt_nprobes, profile = dtp->dt_nprobes, usdt, tpbtf;
	dt_pinfo_t upi = { .pi_prov = &dt_prov_usdt, .pi_kind = DT_PK_USDT };
	dt_ptab_t t;
	int rc = 0;

	if (r == NULL || r->r_en.en_nstmts == 0)
		return dt_set_errmsg(dtp, EDT_NOTRACE, "no probes are enabled");
	if (r->r_ld.ld_started || r->r_ld.ld_nprogs > 0)
		return dt_set_errmsg(dtp, EDT_BADARG, "tracing has started already");
	if (write_user_refused(dtp, r) || prepare(dtp, r) != 0 || create_maps(dtp, r) != 0)
		return -1;
	/* the programs of the probes the clauses matched, as dtrace_go loads them */
	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++)
		if (build(dtp, r, k, true) != 0)
			return -1;
	/* every clause alone on a stand-in of each kind of probe */
	for (size_t p = 0; p < dtp->dt_nprobes; p++) {
		if (begin == dtp->dt_nprobes && dt_probe_is(dtp, p, DT_PK_BEGIN))
			begin = p;
		if (profile == dtp->dt_nprobes && dt_probe_prov(dtp, p) == &dt_prov_profile)
			profile = p;
	}
	t = dt_ptab_get(dtp);
	usdt = t.pt_n;
	if (dt_ptab_add(&t, "verify", "", "", "usdt", &upi) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	/* a BTF-typed tracepoint (sched_switch: 4 arguments), where the kernel has them */
	tpbtf = tp_btf_standin(&t);
	dt_ptab_put(dtp, &t);
	for (int s = 0; s < r->r_en.en_nstmts && rc == 0; s++)
		if (verify_on(dtp, r, r->r_en.en_stmts[s], begin, NULL, "BEGIN") != 0 ||
		    verify_on(dtp, r, r->r_en.en_stmts[s], profile, NULL, "profile") != 0 ||
		    verify_on(dtp, r, r->r_en.en_stmts[s], usdt, verify_argspec, "USDT") != 0 ||
		    (tpbtf != 0 &&
		     verify_on(dtp, r, r->r_en.en_stmts[s], tpbtf, NULL, "tp_btf") != 0))
			rc = -1;
	dtp->dt_nprobes = usdt; /* the stand-in leaves the table: it is last */
	/* and on the first probe of each group (syscall: sys_enter, sys_exit), in its program */
	for (size_t p = 0, ngroups = 0; p < dtp->dt_nprobes && rc == 0 && ngroups < 8; p++) {
		const dt_provimpl_t *pv = dt_probe_prov(dtp, p);
		const char *group;
		uint32_t key;
		bool seen = false;
		char kind[128];

		if (pv->pv_group == NULL || pv->pv_guard == NULL ||
		    (group = pv->pv_group(dtp, p, &key)) == NULL)
			continue;
		for (size_t q = 0; q < p && !seen; q++) {
			const char *g;

			seen = dt_probe_prov(dtp, q) == pv &&
			       (g = pv->pv_group(dtp, q, &key)) != NULL && strcmp(g, group) == 0;
		}
		if (seen)
			continue;
		ngroups++;
		snprintf(kind, sizeof(kind), "%s (%s)", pv->pv_name, group);
		for (int s = 0; s < r->r_en.en_nstmts && rc == 0; s++)
			if (verify_on(dtp, r, r->r_en.en_stmts[s], p, NULL, kind) != 0)
				rc = -1;
	}
	return rc;
}

static int go(dtrace_hdl_t *dtp, dt_run_t *r);

/*
 * A failure leaves nothing behind: the run goes whole (links closed, so
 * semaphores back down; programs and maps closed; the target released as
 * at dtrace_close), and the handle's error says what failed.
 */
int dtrace_go(dtrace_hdl_t *dtp)
{
	dt_run_t *r;

	if (dtp == NULL)
		return -1;
	/* with a target, clauses that match nothing yet (-Z) wait for its probes */
	if ((r = dtp->dt_run) == NULL ||
	    (r->r_en.en_necbs == 0 && (r->r_tg.tg_pid <= 0 || r->r_en.en_nstmts == 0)))
		return dt_set_errmsg(dtp, EDT_NOTRACE, "no probes are enabled");
	if (r->r_ld.ld_started || r->r_ld.ld_nprogs > 0) /* or dt_load_link_all() ran */
		return dt_set_errmsg(dtp, EDT_BADARG, "tracing has started already");
	if (go(dtp, r) == 0)
		return 0;
	dt_run_free(dtp);
	return -1;
}

static int go(dtrace_hdl_t *dtp, dt_run_t *r)
{
	uint32_t key = 0;
	uint8_t *state;
	int err;

	if (geteuid() != 0 && access("/proc/self/status", R_OK) == 0) {
		/* CAP_BPF is bit 39, CAP_PERFMON 38 */
		FILE *f = fopen("/proc/self/status", "re");
		char line[256];
		unsigned long long eff = 0;

		while (f != NULL && fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "CapEff: %llx", &eff) == 1)
				break;
		if (f != NULL)
			fclose(f);
		if (!(eff & (1ULL << 39)) || !(eff & (1ULL << 38)))
			return dt_set_errno(dtp, EDT_NOPRIV);
	}
	if (prepare(dtp, r) != 0)
		return -1;
	/*
	 * raise(), stop(), system() ... need -w (the destructive option):
	 * illumos' kernel refuses to go (EACCES), dtrace_go says
	 * EDT_DESTRUCTIVE, and dtrace(1) "could not enable tracing:
	 * Destructive actions not allowed".
	 */
	if (!dt_option_get(dtp, "destructive", 0))
		for (int i = 0; i < r->r_en.en_nstmts; i++)
			if (r->r_en.en_stmts[i]->st_destructive)
				return dt_set_errno(dtp, EDT_DESTRUCTIVE);
	if (write_user_refused(dtp, r))
		return -1;
	if (create_maps(dtp, r) != 0 || errno_watch(dtp, r) != 0)
		return -1;
	/*
	 * the target's tables before it runs: its stacks are whole from the
	 * start; and dtrace's own, where BEGIN, END and ERROR fire
	 */
	if (r->r_ld.ld_unw != NULL && r->r_tg.tg_pid > 0)
		unwind_first(dtp, r, r->r_tg.tg_pid);
	if (r->r_ld.ld_unw != NULL)
		unwind_first(dtp, r, getpid());
	if ((state = calloc(1, r->r_ld.ld_layout.ly_state)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	{
		uint64_t act = DT_ACTIVITY_WARMUP,
			 off = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);

		memcpy(state + DT_ST_ACTIVITY, &act, 8);
		memcpy(state + DT_ST_WALLOFF, &off, 8);
	}
	if ((err = ks_map_update(r->r_ld.ld_fd[DT_MAP_STATE], &key, state, BPF_ANY)) != 0) {
		free(state);
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot set the state: %s", strerror(-err));
	}
	free(state);
	/*
	 * second pass: every program loaded, then all attached in one go, so
	 * that a target watching its semaphores sees them rise close together
	 */
	r->r_ld.ld_started = true;
	if (build_all(dtp, r, 0, r->r_ld.ld_nprogs) != 0)
		return -1;
	r->r_ld.ld_ntimers = count_timers(dtp, r); /* before the timers attach */
	for (size_t k = 0; k < r->r_ld.ld_nprogs; k++)
		if (attach(dtp, r, k) != 0) /* the target may have gone since the grab */
			return dtrace_proc_exited(dtp, NULL)
				   ? dt_set_errmsg(dtp, EDT_PROC, "pid %d has exited",
						   (int)r->r_tg.tg_pid)
				   : -1;
	if (timers_start(dtp, r) != 0 || dt_consume_open(dtp, r) != 0)
		return -1;
	if (hook_attach(dtp, r) != 0)
		return -1;
	r->r_dr.dr_status = DTRACE_STATUS_OKAY;
	fire_own(dtp, r, DT_PK_BEGIN);
	(void)set_activity(r, DT_ACTIVITY_ACTIVE, DT_ACTIVITY_WARMUP);
	return 0;
}

/*
 * Probes of the target that appeared since the last look (libraries it
 * loaded, libusdt providers it created): enable the clauses that match.
 */
int dt_load_rescan(dtrace_hdl_t *dtp, dt_run_t *r)
{
	size_t first, progs;
	unsigned n = 0;

	if (r->r_tg.tg_pid <= 0 || r->r_tg.tg_exited || r->r_dr.dr_stopped)
		return 0;
	release_gone(dtp, r);
	if (dt_probe_rescan(dtp, r->r_tg.tg_pid, &first) != 0)
		return -1;
	if (first == dtp->dt_nprobes)
		return 0;
	if (hook_attach(dtp, r) != 0) /* libusdt loaded since */
		return -1;
	for (int s = 0; s < r->r_en.en_nstmts; s++)
		if (match_stmt(dtp, r, s, first, &n) != 0)
			return -1;
	progs = r->r_ld.ld_nprogs;
	if (n == 0 || plan(dtp, r, first) != 0)
		return n == 0 ? 0 : -1;
	if (build_all(dtp, r, progs, r->r_ld.ld_nprogs) != 0)
		return -1;
	for (size_t k = progs; k < r->r_ld.ld_nprogs; k++) { /* loaded first, as in dtrace_go */
		if (attach(dtp, r, k) == 0)
			continue;
		/* the file went since the rescan (a libusdt image disabled or
		 * rebuilt, the target exiting): so did its probes */
		if (dt_probe_file_gone(dtp, r->r_ld.ld_progs[k].bp_probe))
			continue;
		return -1;
	}
	return 0;
}

int dtrace_stop(dtrace_hdl_t *dtp)
{
	dt_run_t *r;

	if (dtp == NULL)
		return -1;
	if ((r = dtp->dt_run) == NULL || !r->r_ld.ld_started)
		return dt_set_errno(dtp, EDT_NOTRACE);
	if (r->r_dr.dr_stopped)
		return 0;
	r->r_dr.dr_stopped = true;
	(void)set_activity(r, DT_ACTIVITY_ENDING, 0);
	fire_own(dtp, r, DT_PK_END);
	if (r->r_dr.dr_status != DTRACE_STATUS_EXITED)
		r->r_dr.dr_status = DTRACE_STATUS_STOPPED;
	return 0;
}

int dtrace_status(dtrace_hdl_t *dtp)
{
	return dtp != NULL && dtp->dt_run != NULL ? dtp->dt_run->r_dr.dr_status
						  : DTRACE_STATUS_NONE;
}

int dtrace_exit_value(dtrace_hdl_t *dtp)
{
	return dtp != NULL && dtp->dt_run != NULL ? dtp->dt_run->r_dr.dr_exitval : 0;
}

int dtrace_oformat(dtrace_hdl_t *dtp)
{
	return dtp != NULL && dt_option_get(dtp, "oformat", DT_OFORMAT_TEXT) != DT_OFORMAT_TEXT;
}
