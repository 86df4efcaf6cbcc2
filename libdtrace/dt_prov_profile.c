/*
 * dt_prov_profile.c -- the profile provider: profile-N fires on every CPU
 * at a rate, tick-N on one CPU, both from the kernel's CPU clock timers
 * (perf events).  Their arguments: arg0 the kernel's pc, arg1 the user
 * pc, one of them 0.  Rates other than the listed ones are made on
 * demand: tick-10ms, profile-1234hz.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dt_provider.h"

static const unsigned profile_rates[] = { 97, 199, 499, 997, 1999, 4001, 4999 };
static const unsigned tick_rates[] = { 1, 10, 100, 500, 1000, 5000 };

/* illumos' profile_attr (uts/common/dtrace/profile.c) */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_profile, .pi_attr = &attr };
	char name[32];

	(void)dtp;
	for (int k = 0; k < 2; k++) { /* profile-N, then tick-N */
		const unsigned *rates = k == 0 ? profile_rates : tick_rates;
		size_t n = k == 0 ? sizeof(profile_rates) / sizeof(profile_rates[0])
				  : sizeof(tick_rates) / sizeof(tick_rates[0]);

		pi.pi_kind = k == 0 ? DT_PK_PROFILE : DT_PK_TICK;
		for (size_t i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "%s-%u", k == 0 ? "profile" : "tick",
				 rates[i]);
			pi.pi_period = 1000000000ULL / rates[i];
			if (dt_ptab_add(t, "profile", "", "", name, &pi))
				return 1;
		}
	}
	return 0;
}

/* profile-N or tick-N with a unit (tick-10ms, profile-1234hz), if new and valid */
static int provide(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	const char *name = desc != NULL ? desc->dtpd_name : "";
	bool tick = strncmp(name, "tick-", 5) == 0;
	dt_pinfo_t pi = { .pi_prov = &dt_prov_profile,
			  .pi_kind = tick ? DT_PK_TICK : DT_PK_PROFILE,
			  .pi_attr = &attr };
	const char *num = name + (tick ? 5 : 8);
	dt_ptab_t t;
	int rc;

	if (desc == NULL ||
	    (desc->dtpd_provider[0] != '\0' && strcmp(desc->dtpd_provider, "profile") != 0))
		return 0;
	if (!tick && strncmp(name, "profile-", 8) != 0)
		return 0;
	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		if (dtp->dt_pinfo[i].pi_prov == &dt_prov_profile &&
		    strcmp(dtp->dt_probes[i].dtpd_name, name) == 0)
			return 0;
	if (dt_time_parse(num, &pi.pi_period) != 0 || pi.pi_period == 0)
		return 0;
	/* the kernel's timers go no faster than this */
	if (pi.pi_period < 10000)
		return dt_set_errmsg(dtp, EDT_BADPSPEC, "%s: the interval must be 10us or more",
				     name);
	t = dt_ptab_get(dtp);
	rc = dt_ptab_add(&t, "profile", "", "", name, &pi);
	dt_ptab_put(dtp, &t);
	return rc != 0 ? dt_set_errno(dtp, EDT_NOMEM) : 0;
}

static void progtype(const dt_pinfo_t *pi, enum bpf_prog_type *type, uint32_t *attach_type,
		     uint32_t *btf_id)
{
	(void)pi, (void)btf_id;
	*type = BPF_PROG_TYPE_PERF_EVENT;
	*attach_type = 0;
}

/* arg0: the kernel's pc, arg1: the user pc; one of them is 0 */
static int arg(const dt_argreq_t *rq, int i)
{
	dt_frag_t *o = rq->ar_out;
	int user = dt_frag_label(o), done = dt_frag_label(o);

	if (i > 1) {
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
		return 0;
	}
	/* the privilege level in cs says whose pc ip is (pt_regs, as the architecture lays it) */
	dt_frag_emit(o,
		     KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, (int16_t)ks_reg_offset("cs", NULL)));
	dt_frag_emit(o,
		     KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, (int16_t)ks_reg_offset("ip", NULL)));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 3));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), user);
	if (i == 1)
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
	dt_frag_emit_to(o, KS_JA(0), done);
	dt_frag_place(o, user);
	if (i == 0)
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
	dt_frag_place(o, done);
	return 0;
}

/*
 * profile-N: a timer on every online CPU; tick-N: on the first online one
 * (on a 2-CPU VM the second CPU's timers did not fire while it was idle:
 * tick-1s there fired after 11 to 235 s, which its lost firings showed).
 * The timers join a group of their CPU, which dtrace_go starts once all
 * are attached: every timer starting on its own costs the kernel a
 * reschedule of all the CPU's others (3,000 timers: 2.3 s of opening
 * them).  Fast timers (more than 100 a second) have groups of their own:
 * the kernel throttles a timer that fires 400 times between two of the
 * CPU's scheduler ticks (an idle CPU has none), and with it its whole
 * group (Linux 6.16), so tick-1s in profile-997's group fired up to 2 s
 * late.  cookie: the probe's key in a shared program (0 alone); a tick's
 * place in dt_ticks, + 1, is in its high half (entry).
 */
static int attach_cookie(dtrace_hdl_t *dtp, size_t p, int fd, int ncpus, uint64_t cookie,
			 dt_links_t *links)
{
	const dt_pinfo_t *pi = &dtp->dt_pinfo[p];
	bool fast = pi->pi_period < 10000000;
	int link;

	if (pi->pi_kind == DT_PK_TICK) /* its place in dt_ticks, + 1 (entry) */
		cookie |= ((uint64_t)pi->pi_key + 1) << 32;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if ((link = ks_attach_timer(fd, cpu, pi->pi_period, dt_timer_group(dtp, cpu, fast),
					    cookie)) == -ENODEV)
			continue; /* a possible CPU that is not online */
		if (link < 0)
			return dt_probe_attach_err(dtp, p, -link);
		if (dt_links_add(dtp, links, link) != 0)
			return -1;
		if (pi->pi_kind == DT_PK_TICK)
			return 0;
	}
	return pi->pi_kind == DT_PK_TICK ? dt_probe_attach_err(dtp, p, ENODEV) : 0;
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	(void)argspec, (void)attach_type;
	return attach_cookie(dtp, p, fd, ncpus, 0, links);
}

/* reg = the map (relocated when the program links) */
static void emit_map(dt_frag_t *o, int reg, dt_mapid_t map)
{
	struct bpf_insn i[2] = { KS_LD_MAP_FD(reg, 0) };

	dt_frag_emit(o, i[0]);
	dt_frag_reloc(o, DT_RL_MAP, map);
	dt_frag_emit(o, i[1]);
}

/* the stack: a bpf_perf_event_value (counter, enabled, running), a key */
enum { VAL = -40, RUNNING = -24, KEY = -8 };

/* r0 = the element of map at the u32 key on the stack, or a jump to fail */
static void lookup(dt_frag_t *o, dt_mapid_t map, int fail)
{
	emit_map(o, BPF_REG_1, map);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_10));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_2, KEY));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_map_lookup_elem));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), fail);
}

/*
 * A tick firing whose program did not run is counted lost.  The kernel
 * skips a perf event's BPF program while its CPU is in another BPF
 * program or in a bpf(2) map operation (bpf_prog_active: a consumer
 * reading an aggregation, any process's map update), and says nothing:
 * a loop of map look-ups on a CPU lost 8% of profile-997hz there.  Each
 * tick firing that runs counts the periods since the last one that ran
 * (dt_ticks, at the tick's place in the attach cookie's high half), to
 * the nearest: more than one are firings lost (DT_DROP_TICK, on its
 * CPU), while the probes are on (DT_ACTIVITY_ACTIVE: not the consumer's
 * END and after).  The first counts the periods its timer has run (its
 * perf event's running time), so that a first firing lost is found too.
 * A firing late by half a period or more would count one lost; the
 * kernel's timers keep their period, so a later one is not.
 */
static int entry(dtrace_hdl_t *dtp, const size_t *probes, size_t n, dt_frag_t *o)
{
	bool tick = false;
	int out = dt_frag_label(o), store = dt_frag_label(o), count = dt_frag_label(o);

	for (size_t i = 0; i < n && !tick; i++)
		tick = dt_probe_is(dtp, probes[i], DT_PK_TICK);
	if (!tick)
		return 0;
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_6, BPF_REG_1));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_get_attach_cookie));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), out); /* a profile probe */
	dt_frag_emit(o, KS_ALU64_IMM(BPF_SUB, BPF_REG_0, 1));
	dt_frag_emit(o, KS_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, KEY));
	lookup(o, DT_MAP_TICKS, out);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_7, BPF_REG_0));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_ktime_get_ns));
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_9, BPF_REG_0)); /* now */
	/* r8 = the time since the last firing that ran, or the timer's running time */
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_7, 8));
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_8, BPF_REG_9));
	dt_frag_emit(o, KS_ALU64_REG(BPF_SUB, BPF_REG_8, BPF_REG_1));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), count);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_6));
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_10));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_2, VAL));
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_3, 24));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_perf_prog_read_value));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0), store);
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_8, BPF_REG_10, RUNNING));
	dt_frag_place(o, count);
	/* r8 = the periods in it, to the nearest; lost: those past the first */
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_7, 0));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), store);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_1));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_2, 1));
	dt_frag_emit(o, KS_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_2));
	dt_frag_emit(o, KS_ALU64_REG(BPF_DIV, BPF_REG_8, BPF_REG_1));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JLE, BPF_REG_8, 1, 0), store);
	dt_frag_emit(o, KS_ALU64_IMM(BPF_SUB, BPF_REG_8, 1));
	/* lost while the probes are on only (not the consumer's END and after) */
	dt_frag_emit(o, KS_ST_MEM(BPF_W, BPF_REG_10, KEY, 0));
	lookup(o, DT_MAP_STATE, store);
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, DT_ST_ACTIVITY));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_0, DT_ACTIVITY_ACTIVE, 0), store);
	lookup(o, DT_MAP_DROPS, store);
	dt_frag_emit(o, KS_ATOMIC_ADD64(BPF_REG_0, BPF_REG_8, DT_DROP_TICK * 8));
	dt_frag_place(o, store);
	dt_frag_emit(o, KS_STX_MEM(BPF_DW, BPF_REG_7, BPF_REG_9, 8));
	dt_frag_place(o, out);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_6));
	return o->fr_oom ? dt_set_errno(dtp, EDT_NOMEM) : 0;
}

/*
 * Timers whose clauses are the same share a program (pv_share): each
 * timer's link carries its probe's key as the cookie, which the guard
 * reads back.  1,000 clauses each on a tick and a profile probe are 1,000
 * programs to load, not 2,000.
 */
static int guard(const dt_argreq_t *rq)
{
	dt_frag_t *o = rq->ar_out;

	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_6));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_get_attach_cookie));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_LSH, BPF_REG_0, 32)); /* the low half: a tick's high */
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_0, 32)); /* half is its place (entry) */
	return 0;
}

static int attach_group(dtrace_hdl_t *dtp, const size_t *probes, const uint32_t *keys, size_t n,
			int fd, uint32_t attach_type, dt_links_t *links)
{
	int ncpus = ks_ncpus();

	(void)attach_type;
	if (ncpus <= 0)
		return dt_set_errmsg(dtp, EDT_ENABLING, "cannot count the CPUs");
	for (size_t i = 0; i < n; i++)
		if (attach_cookie(dtp, probes[i], fd, ncpus, keys[i], links) != 0)
			return -1;
	return 0;
}

const dt_provimpl_t dt_prov_profile = {
	.pv_name = "profile",
	.pv_populate = populate,
	.pv_provide = provide,
	.pv_progtype = progtype,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_share = true,
	.pv_guard = guard,
	.pv_attach_group = attach_group,
	.pv_entry = entry,
};
