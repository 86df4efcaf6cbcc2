/*
 * dt_prov_fbt.c -- the fbt provider: fbt:vmlinux:FUNC:entry and
 * fbt:vmlinux:FUNC:return for each kernel function vmlinux BTF describes
 * (its FUNC entries), through fentry and fexit programs bound to the
 * function when they load.  args[i] is the function's argument i typed as
 * BTF types it; at return, args[1] is the return value (and arg0, which
 * illumos makes the offset of the returning instruction, is 0: a
 * trampoline does not know which ret it came from).
 *
 * Probes are made on demand, for the descriptions that name them (a
 * function glob): vmlinux has about 56,000 functions, 112,000 probes, and
 * a bare dtrace -l does not list them (dtrace -l -P fbt does).
 *
 * Where the kernel refuses fentry programs (a BPF LSM policy, lockdown,
 * no BTF) there are no probes, and a description naming fbt that matches
 * nothing says why (pv_unavailable): the trial load and attach of
 * ks_features_tracing(), with its errno.
 *
 * The same context (the kernel's arguments, 8 bytes each) is what a
 * tp_btf program sees: dt_load_verify's tp_btf stand-in is a probe of this
 * provider too (DT_PK_TP_BTF).
 */
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_provider.h"

/* illumos' fbt_attr (uts/intel/dtrace/fbt.c) */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

#define MAXARGS 12 /* MAX_BPF_FUNC_ARGS: a trampoline passes no more */

static char why[256];
static pthread_once_t why_once = PTHREAD_ONCE_INIT;

static void find_why(void)
{
	const ks_features_t *kf = ks_features_tracing();

	if (!kf->kf_fentry)
		snprintf(why, sizeof(why), "kernel functions cannot be traced: %s failed: %s",
			 kf->kf_fentry_step, strerror(kf->kf_fentry_err));
}

static const char *unavailable(dtrace_hdl_t *dtp)
{
	(void)dtp;
	pthread_once(&why_once, find_why);
	return why[0] != '\0' ? why : NULL;
}

static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	(void)dtp, (void)t;
	return 0; /* on demand only */
}

typedef struct provide_state {
	dtrace_hdl_t *ps_dtp;
	const dtrace_probedesc_t *ps_desc;
	ks_btf_t *ps_btf;
	char **ps_have; /* functions whose probes the table has, sorted */
	size_t ps_nhave;
	dt_ptab_t ps_tab;
	int ps_err;
} provide_state_t;

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *arena_str(dt_ptab_t *t, const char *s)
{
	return dt_arena_strndup(t->pt_arena, s, strlen(s));
}

/* A function's entry and return probes, if the description names it. */
static int add_func(void *arg, const char *name, uint32_t id)
{
	provide_state_t *ps = arg;
	const dtrace_probedesc_t *d = ps->ps_desc;
	dt_pinfo_t pi = { .pi_prov = &dt_prov_fbt, .pi_attr = &attr, .pi_btf_id = id };
	char *types[MAXARGS], *ret = NULL;
	dt_argdesc_t *ea, *ra;
	int n;

	if (d->dtpd_func[0] != '\0' && fnmatch(d->dtpd_func, name, 0) != 0)
		return 0;
	if (strlen(name) >= DTRACE_FUNCNAMELEN ||
	    bsearch(&name, ps->ps_have, ps->ps_nhave, sizeof(char *), by_name) != NULL)
		return 0;
	/* variadic, or more arguments than a trampoline passes: not traceable */
	if ((n = ks_btf_func_args(ps->ps_btf, id, types, MAXARGS, &ret)) < 0)
		return n == -ENOMEM ? (ps->ps_err = ENOMEM) : 0;
	/*
	 * A struct or union passed by value takes one or two of the context's
	 * 8-byte slots by its size (more: the kernel refuses the function), so
	 * args[i] would not be slot i: left out.
	 */
	for (int i = 0; i < n; i++)
		if (strchr(types[i], '*') == NULL &&
		    (strstr(types[i], "struct ") != NULL || strstr(types[i], "union ") != NULL)) {
			for (int k = 0; k < n; k++)
				free(types[k]);
			free(ret);
			return 0;
		}
	ea = dt_arena_alloc(ps->ps_tab.pt_arena, sizeof(*ea) * (size_t)(n + 1));
	ra = dt_arena_alloc(ps->ps_tab.pt_arena, sizeof(*ra) * 2);
	for (int i = 0; ea != NULL && i < n; i++) {
		ea[i].native = arena_str(&ps->ps_tab, types[i]);
		ea[i].mapping = i;
		if (ea[i].native == NULL)
			ea = NULL;
	}
	if (ra != NULL) {
		ra[0] = (dt_argdesc_t){ "int", NULL, 0 };
		ra[1] = (dt_argdesc_t){ arena_str(&ps->ps_tab, ret), NULL, 1 };
	}
	for (int i = 0; i < n; i++)
		free(types[i]);
	if (ea == NULL || ra == NULL || ra[1].native == NULL) {
		free(ret);
		return ps->ps_err = ENOMEM;
	}
	/* both, whichever the description wants: a later one finds the other made */
	pi.pi_ctxargs = n;
	pi.pi_kind = DT_PK_FBT_ENTRY;
	pi.pi_args = ea;
	pi.pi_nargs = n;
	if (dt_ptab_add(&ps->ps_tab, "fbt", "vmlinux", name, "entry", &pi) != 0)
		ps->ps_err = ENOMEM;
	if (ps->ps_err == 0) {
		pi.pi_kind = DT_PK_FBT_RETURN;
		pi.pi_args = ra;
		pi.pi_nargs = strcmp(ret, "void") == 0 ? 1 : 2;
		if (dt_ptab_add(&ps->ps_tab, "fbt", "vmlinux", name, "return", &pi) != 0)
			ps->ps_err = ENOMEM;
	}
	free(ret);
	return ps->ps_err;
}

/* the functions a description names, when the kernel can trace them */
static int provide(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	if (desc == NULL) /* dtrace -l: fbt is listed only when named */
		return 0;
	if ((desc->dtpd_provider[0] != '\0' && fnmatch(desc->dtpd_provider, "fbt", 0) != 0) ||
	    (desc->dtpd_mod[0] != '\0' && fnmatch(desc->dtpd_mod, "vmlinux", 0) != 0))
		return 0;
	if (desc->dtpd_name[0] != '\0' && fnmatch(desc->dtpd_name, "entry", 0) != 0 &&
	    fnmatch(desc->dtpd_name, "return", 0) != 0)
		return 0;
	if (unavailable(dtp) != NULL)
		return 0;
	/* one function, made already: no need to read BTF again */
	if (desc->dtpd_func[0] != '\0' && strpbrk(desc->dtpd_func, "*?[\\") == NULL)
		for (size_t i = 0; i < dtp->dt_nprobes; i++)
			if (dtp->dt_pinfo[i].pi_prov == &dt_prov_fbt &&
			    strcmp(dtp->dt_probes[i].dtpd_func, desc->dtpd_func) == 0)
				return 0;
	return dt_prov_fbt_list(dtp, desc);
}

int dt_prov_fbt_list(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	provide_state_t ps = { .ps_dtp = dtp, .ps_desc = desc };

	if (dt_probe_table(dtp) != 0)
		return -1;
	if (ks_btf_open(&ps.ps_btf) != 0)
		return 0; /* no BTF: unavailable() says so */
	/*
	 * The functions already there (an earlier description made them),
	 * copied: adding probes moves the table's names.
	 */
	ps.ps_have = malloc(sizeof(char *) * (dtp->dt_nprobes + 1));
	if (ps.ps_have == NULL) {
		ks_btf_close(ps.ps_btf);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	for (size_t i = 0; i < dtp->dt_nprobes; i++) {
		if (dtp->dt_pinfo[i].pi_prov != &dt_prov_fbt ||
		    dtp->dt_pinfo[i].pi_kind != DT_PK_FBT_ENTRY)
			continue;
		if ((ps.ps_have[ps.ps_nhave] = strdup(dtp->dt_probes[i].dtpd_func)) == NULL) {
			ps.ps_err = ENOMEM;
			break;
		}
		ps.ps_nhave++;
	}
	qsort(ps.ps_have, ps.ps_nhave, sizeof(char *), by_name);
	ps.ps_tab = dt_ptab_get(dtp);
	if (ps.ps_err == 0)
		(void)ks_btf_funcs(ps.ps_btf, add_func, &ps);
	dt_ptab_put(dtp, &ps.ps_tab);
	for (size_t i = 0; i < ps.ps_nhave; i++)
		free(ps.ps_have[i]);
	free(ps.ps_have);
	ks_btf_close(ps.ps_btf);
	return ps.ps_err != 0 ? dt_set_errno(dtp, EDT_NOMEM) : 0;
}

static void progtype(const dt_pinfo_t *pi, enum bpf_prog_type *type, uint32_t *attach_type,
		     uint32_t *btf_id)
{
	*type = BPF_PROG_TYPE_TRACING;
	*attach_type = pi->pi_kind == DT_PK_FBT_ENTRY	 ? BPF_TRACE_FENTRY
		       : pi->pi_kind == DT_PK_FBT_RETURN ? BPF_TRACE_FEXIT
							 : BPF_TRACE_RAW_TP;
	*btf_id = pi->pi_btf_id;
}

/*
 * r0 = the 8 bytes at r6 + off.  Loaded directly, an argument the kernel
 * types as a pointer (a task_struct *) would be a pointer to the verifier,
 * which refuses arithmetic on it, and argN is an integer: copied through
 * the stack, it is one.
 */
static void ctx_load(dt_frag_t *o, int off)
{
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_3, BPF_REG_6));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, off));
	dt_frag_load_kernel(o, 8, DT_SLOT_TMP, -1);
}

void dt_prov_ctx_arg(const dt_argreq_t *rq, int i, int n)
{
	if (i >= 0 && i < n)
		ctx_load(rq->ar_out, 8 * i);
	else
		dt_frag_emit(rq->ar_out, KS_MOV64_IMM(BPF_REG_0, 0));
}

/*
 * entry: argument i is the function's.  return: arg0 the offset of the
 * returning instruction (0: unknown to a trampoline), arg1 the value,
 * which fexit's context holds after the arguments.
 */
static int arg(const dt_argreq_t *rq, int i)
{
	const dt_pinfo_t *pi = &rq->ar_dtp->dt_pinfo[rq->ar_probe];

	if (pi->pi_kind == DT_PK_FBT_RETURN) {
		if (i == 1 && pi->pi_nargs == 2)
			ctx_load(rq->ar_out, 8 * pi->pi_ctxargs);
		else
			dt_frag_emit(rq->ar_out, KS_MOV64_IMM(BPF_REG_0, 0));
		return 0;
	}
	dt_prov_ctx_arg(rq, i, pi->pi_ctxargs);
	return 0;
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	int link;

	(void)argspec, (void)attach_type, (void)ncpus;
	if ((link = ks_attach_btf(fd)) < 0)
		return dt_probe_attach_err(dtp, p, -link);
	return dt_links_add(dtp, links, link);
}

const dt_provimpl_t dt_prov_fbt = {
	.pv_name = "fbt",
	.pv_populate = populate,
	.pv_provide = provide,
	.pv_progtype = progtype,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_unavailable = unavailable,
};
