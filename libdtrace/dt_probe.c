/*
 * dt_probe.c -- the probe table: the probes a consumer can enable, for
 * dtrace -l and for matching probe descriptions, as the providers
 * (dt_provider.h, the registry below) make them; probe descriptions and
 * how they match.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dt_provider.h"

/* The registry: every provider, in the order their probes are listed. */
#define DT_PROV_ENTRY(name) &dt_prov_##name,
const dt_provimpl_t *const dt_providers[] = { DT_PROVIDERS(DT_PROV_ENTRY) NULL };

/* ---------------------------------------------------------------- descriptions */

static int set_field(dtrace_hdl_t *dtp, char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		return dt_set_errmsg(dtp, EDT_BADPSPEC, "probe description field too long: %.*s",
				     (int)n, s);
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

int dtrace_str2desc(dtrace_hdl_t *dtp, int spec, const char *s, dtrace_probedesc_t *pdp)
{
	const char *f[4] = { 0 }, *p;
	size_t flen[4] = { 0 };
	int nf = 0, first;

	if (dtp == NULL)
		return -1;
	if (s == NULL || pdp == NULL || spec < DTRACE_PROBESPEC_NONE ||
	    spec > DTRACE_PROBESPEC_NAME)
		return dt_set_errno(dtp, EDT_BADARG);
	memset(pdp, 0, sizeof(*pdp));
	if (spec != DTRACE_PROBESPEC_NONE) {
		/* a single field: -P, -m, -f or -n with no colon */
		f[spec] = s;
		flen[spec] = strlen(s);
	} else {
		const char *start[4];
		size_t len[4];

		for (p = s;; p++) {
			const char *e = strchr(p, ':');

			if (nf == 4)
				return dt_set_errmsg(dtp, EDT_BADPSPEC,
						     "invalid probe description \"%s\": "
						     "more than four fields",
						     s);
			start[nf] = p;
			len[nf] = e != NULL ? (size_t)(e - p) : strlen(p);
			nf++;
			if (e == NULL)
				break;
			p = e;
		}
		first = 4 - nf; /* fields fill from the right */
		for (int i = 0; i < nf; i++) {
			f[first + i] = start[i];
			flen[first + i] = len[i];
		}
	}
	if ((f[0] &&
	     set_field(dtp, pdp->dtpd_provider, sizeof(pdp->dtpd_provider), f[0], flen[0])) ||
	    (f[1] && set_field(dtp, pdp->dtpd_mod, sizeof(pdp->dtpd_mod), f[1], flen[1])) ||
	    (f[2] && set_field(dtp, pdp->dtpd_func, sizeof(pdp->dtpd_func), f[2], flen[2])) ||
	    (f[3] && set_field(dtp, pdp->dtpd_name, sizeof(pdp->dtpd_name), f[3], flen[3])))
		return -1;
	return 0;
}

/* A pattern without the characters of a glob (most of them) is the name itself. */
static bool field_match(const char *pattern, const char *s)
{
	if (pattern[0] == '\0')
		return true;
	if (strpbrk(pattern, "*?[\\") == NULL)
		return strcmp(pattern, s) == 0;
	return fnmatch(pattern, s, 0) == 0;
}

/*
 * The old names of the bindings' runtime providers (docs/providers.md,
 * "Runtime providers": LANGUAGE_rt), which a description may still use:
 * lua$target::: matches lua_rt1234's probes.  The alias lives here, in
 * the matching, so that it costs the traced process nothing: a second
 * provider under the old name would be a second image for every process
 * and, while traced, a second fire per call.
 */
static const struct {
	const char *now, *old;
} prov_aliases[] = {
	{ "lua_rt", "lua" },
};

/* prov is provider NAME, or NAME<PID> for a process's probes. */
static bool provider_match(const char *pattern, const char *prov)
{
	if (field_match(pattern, prov))
		return true;
	for (size_t i = 0; i < sizeof(prov_aliases) / sizeof(prov_aliases[0]); i++) {
		size_t n = strlen(prov_aliases[i].now);
		char old[DTRACE_PROVNAMELEN];

		if (strncmp(prov, prov_aliases[i].now, n) != 0 ||
		    strspn(prov + n, "0123456789") != strlen(prov + n))
			continue;
		snprintf(old, sizeof(old), "%s%s", prov_aliases[i].old, prov + n);
		return fnmatch(pattern, old, 0) == 0;
	}
	return false;
}

bool dt_probe_match(const dtrace_probedesc_t *pat, const dtrace_probedesc_t *p)
{
	/* the name first: it tells most probes apart */
	return pat == NULL || ((pat->dtpd_id == 0 || pat->dtpd_id == p->dtpd_id) &&
			       field_match(pat->dtpd_name, p->dtpd_name) &&
			       field_match(pat->dtpd_func, p->dtpd_func) &&
			       field_match(pat->dtpd_mod, p->dtpd_mod) &&
			       provider_match(pat->dtpd_provider, p->dtpd_provider));
}

/* ---------------------------------------------------------------- the walk */

int dt_ptab_add(dt_ptab_t *w, const char *prov, const char *mod, const char *func, const char *name,
		const dt_pinfo_t *info)
{
	dtrace_probedesc_t *d;

	if (w->pt_n == w->pt_cap) {
		size_t nc = w->pt_cap ? 2 * w->pt_cap : 64;
		dtrace_probedesc_t *np = realloc(w->pt_probes, nc * sizeof(*np));
		dt_pinfo_t *ni;

		if (np == NULL)
			return 1;
		w->pt_probes = np;
		if ((ni = realloc(w->pt_info, nc * sizeof(*ni))) == NULL)
			return 1;
		w->pt_info = ni;
		w->pt_cap = nc;
	}
	w->pt_info[w->pt_n] = *info;
	w->pt_info[w->pt_n].pi_gone = 0;
	if (info->pi_block != NULL)
		info->pi_block->pb_refs++;
	d = &w->pt_probes[w->pt_n++];
	memset(d, 0, sizeof(*d));
	d->dtpd_id = ++w->pt_lastid;
	snprintf(d->dtpd_provider, sizeof(d->dtpd_provider), "%s", prov);
	snprintf(d->dtpd_mod, sizeof(d->dtpd_mod), "%s", mod);
	snprintf(d->dtpd_func, sizeof(d->dtpd_func), "%s", func);
	snprintf(d->dtpd_name, sizeof(d->dtpd_name), "%s", name);
	return 0;
}

/* The probe table, read once per handle: stable IDs, each provider's probes in turn. */
int dt_probe_table(dtrace_hdl_t *dtp)
{
	dt_ptab_t t = { .pt_arena = &dtp->dt_parena };

	if (dtp->dt_probes != NULL)
		return 0;
	for (int i = 0; dt_providers[i] != NULL; i++)
		if (dt_providers[i]->pv_populate(dtp, &t) != 0) {
			for (size_t k = 0; k < t.pt_n; k++)
				dt_pblock_put(t.pt_info[k].pi_block);
			free(t.pt_probes);
			free(t.pt_info);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
	dt_ptab_put(dtp, &t);
	return 0;
}

dt_ptab_t dt_ptab_get(dtrace_hdl_t *dtp)
{
	return (dt_ptab_t){ dtp->dt_probes, dtp->dt_pinfo,   dtp->dt_nprobes,
			    dtp->dt_pcap,   &dtp->dt_parena, dtp->dt_lastid };
}

void dt_ptab_put(dtrace_hdl_t *dtp, const dt_ptab_t *t)
{
	dtp->dt_probes = t->pt_probes;
	dtp->dt_pinfo = t->pt_info;
	dtp->dt_nprobes = t->pt_n;
	dtp->dt_pcap = t->pt_cap;
	dtp->dt_lastid = t->pt_lastid;
}

dt_pblock_t *dt_pblock_new(void)
{
	dt_pblock_t *b = calloc(1, sizeof(dt_pblock_t));

	/* a file's path and sites: a runtime provider's come to a few hundred bytes */
	if (b != NULL)
		b->pb_arena.da_chunk = 1024;
	return b;
}

void dt_pblock_put(dt_pblock_t *b)
{
	if (b == NULL || (b->pb_refs > 0 && --b->pb_refs > 0))
		return;
	dt_arena_free(&b->pb_arena);
	free(b);
}

size_t dt_probe_remove(dtrace_hdl_t *dtp, const bool *drop, size_t *newidx)
{
	size_t j = 0;

	for (size_t i = 0; i < dtp->dt_nprobes; i++) {
		if (drop[i]) {
			dt_pblock_put(dtp->dt_pinfo[i].pi_block);
			newidx[i] = SIZE_MAX;
			continue;
		}
		if (j != i) {
			dtp->dt_probes[j] = dtp->dt_probes[i];
			dtp->dt_pinfo[j] = dtp->dt_pinfo[i];
		}
		newidx[i] = j++;
	}
	j = dtp->dt_nprobes - j;
	dtp->dt_nprobes -= j;
	return j;
}

int dt_probe_provide(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	if (dt_probe_table(dtp) != 0)
		return -1;
	for (int i = 0; dt_providers[i] != NULL; i++)
		if (dt_providers[i]->pv_provide != NULL &&
		    dt_providers[i]->pv_provide(dtp, desc) != 0)
			return -1;
	return 0;
}

int dt_probe_provide_named(dtrace_hdl_t *dtp, const char *prov, const char *mod)
{
	dtrace_probedesc_t d = { 0 };

	if (dt_probe_table(dtp) != 0)
		return -1;
	if ((prov != NULL && strlen(prov) >= sizeof(d.dtpd_provider)) ||
	    (mod != NULL && strlen(mod) >= sizeof(d.dtpd_mod)))
		return 0; /* no probe has such a name */
	snprintf(d.dtpd_provider, sizeof(d.dtpd_provider), "%s", prov != NULL ? prov : "");
	snprintf(d.dtpd_mod, sizeof(d.dtpd_mod), "%s", mod != NULL ? mod : "");
	(void)dt_probe_provide(dtp, &d); /* what cannot be read is not known */
	return 0;
}

int dt_probe_compile(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc, const char **tag)
{
	bool now = false;

	for (int i = 0; dt_providers[i] != NULL && !now; i++)
		now =
		    dt_providers[i]->pv_at_compile != NULL && dt_providers[i]->pv_at_compile(desc);
	if (!now)
		return 0;
	dtp->dt_ptag = NULL;
	if (dt_probe_provide(dtp, desc) == 0)
		return 0;
	*tag = dtp->dt_ptag != NULL ? dtp->dt_ptag : "D_PDESC_INVAL";
	return -1;
}

int dt_probe_rescan(dtrace_hdl_t *dtp, pid_t pid, size_t *first)
{
	uint64_t h;

	if (dt_probe_table(dtp) != 0)
		return -1;
	*first = dtp->dt_nprobes;
	/* the same executable mappings as last time (or none): nothing new to read */
	if ((h = dt_maps_hash(pid)) == 0 || (pid == dtp->dt_rescan_pid && h == dtp->dt_rescan_hash))
		return 0;
	dtp->dt_rescan_pid = pid;
	dtp->dt_rescan_hash = h;
	dt_usym_remember(dtp, pid); /* for names after it exits (dt_sym.c) */
	for (int i = 0; dt_providers[i] != NULL; i++)
		if (dt_providers[i]->pv_rescan != NULL &&
		    dt_providers[i]->pv_rescan(dtp, pid, h) != 0)
			return -1;
	return 0;
}

bool dt_probe_file_gone(dtrace_hdl_t *dtp, size_t p)
{
	const char *path = dtp->dt_pinfo[p].pi_path;

	return path != NULL && access(path, F_OK) != 0 && errno == ENOENT;
}

uint64_t dt_maps_hash(pid_t pid)
{
	char path[64], line[PATH_MAX + 256];
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((maps = fopen(path, "re")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), maps) != NULL) {
		char perms[8];

		if (sscanf(line, "%*x-%*x %7s", perms) != 1 || perms[2] != 'x')
			continue;
		for (const char *c = line; *c != '\0'; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	}
	fclose(maps);
	return h | 1;
}

int dt_probe_attach_err(dtrace_hdl_t *dtp, size_t p, int err)
{
	const dtrace_probedesc_t *pd = &dtp->dt_probes[p];

	return dt_set_errmsg(dtp, err == EPERM || err == EACCES ? EDT_NOPRIV : EDT_ENABLING,
			     "cannot enable %s:%s:%s:%s: %s", pd->dtpd_provider, pd->dtpd_mod,
			     pd->dtpd_func, pd->dtpd_name, strerror(err));
}

int dt_links_add(dtrace_hdl_t *dtp, dt_links_t *l, int fd)
{
	if (dt_grow(&l->ln_fds, &l->ln_cap, l->ln_n, sizeof(int), 16) != 0) {
		close(fd);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	l->ln_fds[l->ln_n++] = fd;
	return 0;
}

int dt_attach_raw_tp(dtrace_hdl_t *dtp, size_t p, int fd, const char *name, dt_links_t *links)
{
	int link = ks_attach_raw_tp(fd, name);

	return link < 0 ? dt_probe_attach_err(dtp, p, -link) : dt_links_add(dtp, links, link);
}

int dtrace_probe_iter(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probe_f *func,
		      void *arg)
{
	unsigned matched = 0;
	int rc;

	if (dtp == NULL)
		return -1;
	if (func == NULL)
		return dt_set_errno(dtp, EDT_BADARG);
	/* every probe, in the providers' order: the processes' USDT probes read with the table */
	if (pdp == NULL && dtp->dt_probes == NULL)
		dtp->dt_usdt_listing = true;
	if (dt_probe_table(dtp) != 0)
		return -1;
	/* probes made on demand: a module that is a path (the file's probes, whether or not a
	 * process maps it), the USDT probes of the processes the description can match */
	if (dt_probe_provide(dtp, pdp) != 0)
		return -1;
	for (size_t i = 0; i < dtp->dt_nprobes; i++) {
		if (!dt_probe_match(pdp, &dtp->dt_probes[i]))
			continue;
		matched++;
		if ((rc = func(dtp, &dtp->dt_probes[i], arg)) != 0)
			return rc;
	}
	if (matched == 0)
		return dt_probe_unavailable(dtp, pdp) != 0 ? -1 : dt_set_errno(dtp, EDT_NOPROBE);
	return 0;
}

static bool same_args(const dt_pinfo_t *a, const dt_pinfo_t *b)
{
	if (a->pi_nargs != b->pi_nargs)
		return false;
	for (int i = 0; i < a->pi_nargs; i++) {
		const dt_argdesc_t *x = &a->pi_args[i], *y = &b->pi_args[i];

		if (strcmp(x->native, y->native) != 0 || x->mapping != y->mapping ||
		    (x->xlate == NULL) != (y->xlate == NULL) ||
		    (x->xlate != NULL && strcmp(x->xlate, y->xlate) != 0))
			return false;
	}
	return true;
}

int dt_probe_argdescs(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pat, const dt_pinfo_t **pi)
{
	bool some = false, bare = false;

	*pi = NULL;
	if (dt_probe_provide(dtp, pat) != 0)
		return 0;
	for (size_t i = 0; i < dtp->dt_nprobes; i++) {
		const dt_pinfo_t *p = &dtp->dt_pinfo[i];

		if (!dt_probe_match(pat, &dtp->dt_probes[i]))
			continue;
		if (p->pi_args == NULL) {
			bare = true;
			continue;
		}
		if (*pi != NULL && !same_args(*pi, p))
			return -1;
		if (*pi == NULL)
			*pi = p;
		some = true;
	}
	return some && bare ? -1 : some ? 1 : 0;
}

bool dt_probe_dlib_provider(const char *name, size_t len)
{
	for (int i = 0; dt_providers[i] != NULL; i++)
		if (dt_providers[i]->pv_dlib && strlen(dt_providers[i]->pv_name) == len &&
		    memcmp(dt_providers[i]->pv_name, name, len) == 0)
			return true;
	return false;
}

int dt_probe_unavailable(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp)
{
	const dt_provimpl_t *named = NULL;
	const char *why;

	/*
	 * The description must name the provider: its provider field matches
	 * that provider's name and no other's ("fbt", "fb?"; not "" nor "*").
	 */
	if (pdp == NULL || pdp->dtpd_provider[0] == '\0')
		return 0;
	for (int i = 0; dt_providers[i] != NULL; i++) {
		if (fnmatch(pdp->dtpd_provider, dt_providers[i]->pv_name, 0) != 0)
			continue;
		if (named != NULL)
			return 0;
		named = dt_providers[i];
	}
	if (named == NULL || named->pv_unavailable == NULL ||
	    (why = named->pv_unavailable(dtp)) == NULL)
		return 0;
	return dt_set_errmsg(dtp, EDT_PROVUNAVAIL, "%s: %s", named->pv_name, why);
}

static const char *const stabilities[] = { "Internal", "Private",  "Obsolete", "External",
					   "Unstable", "Evolving", "Stable",   "Standard" };
static const char *const classes[] = { "Unknown", "CPU", "Platform", "Group", "ISA", "Common" };

const char *dtrace_stability_name(int s)
{
	return s >= 0 && s <= DTRACE_STABILITY_STANDARD ? stabilities[s] : "Unknown";
}

const char *dtrace_class_name(int c)
{
	return c >= 0 && c <= DTRACE_CLASS_COMMON ? classes[c] : "Unknown";
}

static bool isglob(const char *s)
{
	return s[0] == '\0' || strpbrk(s, "*?[") != NULL;
}

static dtrace_attribute_t attr_min(dtrace_attribute_t a, dt_attr_t b)
{
	a.dtat_name = (uint8_t)(b.name < a.dtat_name ? b.name : a.dtat_name);
	a.dtat_data = (uint8_t)(b.data < a.dtat_data ? b.data : a.dtat_data);
	a.dtat_class = (uint8_t)(b.dclass < a.dtat_class ? b.dclass : a.dtat_class);
	return a;
}

/* found[0]: the first match's place in the table plus 1 (IDs are not places) */
static int first_match(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	size_t *found = arg;

	if (found[0] != 0)
		return 1; /* a second one */
	found[0] = (size_t)(pdp - dtp->dt_probes) + 1;
	return 0;
}

/* The place of the probe with ID id plus 1, or 0: at most id - 1, lower when probes left. */
static size_t place_of(const dtrace_hdl_t *dtp, dtrace_id_t id)
{
	size_t i = id <= dtp->dt_nprobes ? id : dtp->dt_nprobes;

	while (i-- > 0)
		if (dtp->dt_probes[i].dtpd_id == id)
			return i + 1;
	return 0;
}

int dtrace_probe_info(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probeinfo_t *pip)
{
	/* a description names no provider, or a glob: Unstable (illumos' _dtrace_prvdesc) */
	static const dt_attr_t unstable = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE,
					    DTRACE_CLASS_COMMON };
	static const dt_attr_t private = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE,
					   DTRACE_CLASS_UNKNOWN };
	size_t found[1] = { 0 };
	const dt_pinfo_t *pi;
	const dt_attr_t *pa[5];
	int rc = 0;

	if (dtp == NULL)
		return -1;
	if (pdp == NULL || pip == NULL)
		return dt_set_errno(dtp, EDT_BADARG);
	/* a probe of the table (dtrace -l -v asks of each): no need to match */
	if (dtp->dt_probes != NULL && pdp->dtpd_id != 0)
		found[0] = place_of(dtp, pdp->dtpd_id);
	if (found[0] == 0 || !dt_probe_match(pdp, &dtp->dt_probes[found[0] - 1])) {
		found[0] = 0;
		if ((rc = dtrace_probe_iter(dtp, pdp, first_match, found)) < 0)
			return -1;
	}
	pi = &dtp->dt_pinfo[found[0] - 1];
	/*
	 * Several probes: their arguments are the first's only when the
	 * provider promises it, as illumos' dt_probe_info() decides: arguments
	 * Evolving or better, and each component Evolving or better named
	 * without a glob.
	 */
	if (rc > 0) {
		const dt_pattr_t *a = pi->pi_attr;

		if (a == NULL || a->pa_args.data < DTRACE_STABILITY_EVOLVING ||
		    (a->pa_mod.name >= DTRACE_STABILITY_EVOLVING && isglob(pdp->dtpd_mod)) ||
		    (a->pa_func.name >= DTRACE_STABILITY_EVOLVING && isglob(pdp->dtpd_func)) ||
		    (a->pa_name.name >= DTRACE_STABILITY_EVOLVING && isglob(pdp->dtpd_name)))
			return dt_set_errno(dtp, EDT_UNSTABLE);
	}
	memset(pip, 0, sizeof(*pip));
	if (isglob(pdp->dtpd_provider) || pi->pi_attr == NULL) {
		for (int c = 0; c < 5; c++)
			pa[c] = isglob(pdp->dtpd_provider) ? &unstable : &private;
	} else {
		pa[0] = &pi->pi_attr->pa_provider;
		pa[1] = &pi->pi_attr->pa_mod;
		pa[2] = &pi->pi_attr->pa_func;
		pa[3] = &pi->pi_attr->pa_name;
		pa[4] = &pi->pi_attr->pa_args;
	}
	pip->dtp_attr = (dtrace_attribute_t){ (uint8_t)pa[0]->name, (uint8_t)pa[0]->data,
					      (uint8_t)pa[0]->dclass };
	if (!isglob(pdp->dtpd_mod))
		pip->dtp_attr = attr_min(pip->dtp_attr, *pa[1]);
	if (!isglob(pdp->dtpd_func))
		pip->dtp_attr = attr_min(pip->dtp_attr, *pa[2]);
	if (!isglob(pdp->dtpd_name))
		pip->dtp_attr = attr_min(pip->dtp_attr, *pa[3]);
	pip->dtp_arga = (dtrace_attribute_t){ (uint8_t)pa[4]->name, (uint8_t)pa[4]->data,
					      (uint8_t)pa[4]->dclass };
	pip->dtp_argc = pi->pi_nargs < DTRACE_MAXARGS ? pi->pi_nargs : DTRACE_MAXARGS;
	for (int i = 0; i < pip->dtp_argc; i++) {
		const dt_argdesc_t *a = &pi->pi_args[i];

		snprintf(pip->dtp_argv[i], sizeof(pip->dtp_argv[i]), "%s",
			 a->xlate != NULL ? a->xlate : a->native);
	}
	return 0;
}
