/*
 * dt_prov_syscall.c -- the syscall provider: syscall::NAME:entry and
 * syscall::NAME:return for each system call of the native ABI that the
 * running kernel has.  The numbers come from the kernel's table as built
 * in (kernel-shim/syscall_64.tbl), which calls exist from tracefs
 * (events/syscalls/sys_enter_NAME).  Every entry probe shares one program
 * on the sys_enter raw tracepoint, every return probe one on sys_exit (a
 * group, dt_provider.h): the guard finds the call's number, and a compat
 * (ia32) call, whose numbers are another table's, fires nothing.
 *
 * Arguments, as illumos': entry arg0..arg5 are the call's arguments; at
 * return arg0 and arg1 are both the return value, -1 for a failing call
 * (the kernel's -errno, -4095..-1), whose error is errno.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dt_provider.h"

/* tracefs names its events by the kernel's function, not the call's name */
/* illumos' systrace_attr (uts/common/dtrace/systrace.c) */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

static const char *const renamed[][2] = {
	{ "stat", "newstat" },	 { "fstat", "newfstat" },      { "lstat", "newlstat" },
	{ "uname", "newuname" }, { "sendfile", "sendfile64" }, { "umount2", "umount" },
};

static const char *event_name(const char *call)
{
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(renamed[i][0], call) == 0)
			return renamed[i][1];
	return call;
}

/*
 * tracefs's syscalls events directory: tracefs at /sys/kernel/tracing
 * (mounted there if nothing is, when we may) or under debugfs; NULL when
 * there is none (no tracefs, or a kernel without syscall events), and
 * every call of the table is listed.
 */
static const char *events_dir(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static char dir[128];
	struct stat st;
	char events[64];

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
			snprintf(events, sizeof(events), "%s/events", roots[i]);
			if (stat(events, &st) != 0 || !S_ISDIR(st.st_mode))
				continue; /* not mounted there */
			snprintf(dir, sizeof(dir), "%s/syscalls", events);
			return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
		}
		if (pass == 0 && mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) != 0)
			break;
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The calls with an event in dir (sys_enter_NAME: NAME the kernel's), read
 * in one pass: malloc'd names, sorted, *np of them; NULL when dir cannot
 * be read (or no memory): then every call of the table is listed.
 */
static char **event_calls(const char *dir, size_t *np)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL, **nv;
	size_t n = 0, cap = 0;

	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "sys_enter_", 10) != 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 512;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL)
				goto fail;
			v = nv;
		}
		if ((v[n] = strdup(de->d_name + 10)) == NULL)
			goto fail;
		n++;
	}
	closedir(d);
	if (v != NULL)
		qsort(v, n, sizeof(*v), by_name);
	*np = n;
	return v != NULL ? v : calloc(1, sizeof(*v)); /* none: an empty set, not "unknown" */
fail:
	closedir(d);
	while (n > 0)
		free(v[--n]);
	free(v);
	return NULL;
}

static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	const char *dir = events_dir();
	dt_pinfo_t pi = { .pi_prov = &dt_prov_syscall, .pi_attr = &attr };
	size_t nev = 0;
	char **ev = dir != NULL ? event_calls(dir, &nev) : NULL;
	int rc = 0;

	(void)dtp;
	for (size_t i = 0; i < ks_nsyscalls && rc == 0; i++) {
		const char *name = ks_syscalls[i].ks_name, *evname = event_name(name);

		if (ev != NULL && bsearch(&evname, ev, nev, sizeof(*ev), by_name) == NULL)
			continue; /* not implemented, or compiled out */
		pi.pi_sysnr = ks_syscalls[i].ks_nr;
		pi.pi_kind = DT_PK_SYSENTRY;
		if (dt_ptab_add(t, "syscall", "", name, "entry", &pi))
			rc = 1;
		pi.pi_kind = DT_PK_SYSRETURN;
		if (rc == 0 && dt_ptab_add(t, "syscall", "", name, "return", &pi))
			rc = 1;
	}
	for (size_t i = 0; i < nev; i++)
		free(ev[i]);
	free(ev);
	return rc;
}

/* Every entry probe in one program, every return probe in another; the key is the number. */
static const char *group(dtrace_hdl_t *dtp, size_t p, uint32_t *key)
{
	const dt_pinfo_t *pi = &dtp->dt_pinfo[p];

	*key = (uint32_t)pi->pi_sysnr;
	return pi->pi_kind == DT_PK_SYSENTRY ? "sys_enter" : "sys_exit";
}

/*
 * The guard.  The raw tracepoints' context is their arguments: sys_enter
 * (regs, id), sys_exit (regs, ret).  r0 = the call's number (beyond any
 * table's: exit).  Every call of every process runs this and the table
 * lookup, the cheap part.
 */
static int guard(const dt_argreq_t *rq)
{
	dt_frag_t *o = rq->ar_out;
	bool entry = rq->ar_dtp->dt_pinfo[rq->ar_probe].pi_kind == DT_PK_SYSENTRY;

	dt_frag_syscall_nr(o, entry, rq->ar_lfault);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JGT, BPF_REG_0, 0xffff, 0), rq->ar_lfault);
	return 0;
}

/*
 * Then, for a call with an enabled probe: a compat call (TS_COMPAT in the
 * task's thread_info.status), whose number is the ia32 table's, exits.
 */
static int guard_after(const dt_argreq_t *rq)
{
	dt_frag_compat_exit(rq->ar_out, DT_SLOT_TMP, rq->ar_lfault);
	return 0;
}

/*
 * entry: argument i (0-5) from the registers the call was made with
 * (pt_regs, read from the kernel); return: arg0 and arg1 the value, -1
 * for an error.  Others are 0.
 */
static int arg(const dt_argreq_t *rq, int i)
{
	dt_frag_t *o = rq->ar_out;
	bool entry = rq->ar_dtp->dt_pinfo[rq->ar_probe].pi_kind == DT_PK_SYSENTRY;
	int off = ks_syscall_arg_offset(i);

	if (entry && off >= 0) {
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, off));
		dt_frag_load_kernel(o, 8, DT_SLOT_TMP, -1); /* 0 if it fails */
	} else if (!entry && (i == 0 || i == 1)) {
		int done = dt_frag_label(o);

		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, 8));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JSGE, BPF_REG_0, 0, 0), done);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JSLT, BPF_REG_0, -4095, 0), done);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, -1));
		dt_frag_place(o, done);
	} else {
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
	}
	return 0;
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	bool entry = dtp->dt_pinfo[p].pi_kind == DT_PK_SYSENTRY;

	(void)argspec, (void)attach_type, (void)ncpus;
	return dt_attach_raw_tp(dtp, p, fd, entry ? "sys_enter" : "sys_exit", links);
}

const dt_provimpl_t dt_prov_syscall = {
	.pv_name = "syscall",
	.pv_populate = populate,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_group = group,
	.pv_guard = guard,
	.pv_guard_after = guard_after,
};
