/*
 * dt_check.c -- the D checker: names, types and the rules of D, in one pass
 * over the program in order, as DTrace's compiler does.
 *
 * Every expression node gets a type (dn_type) and flags (lvalue, writable,
 * constant: dn_value then holds its folded value).  Variables come into
 * being by declaration or by their first assignment, which fixes their
 * type; later uses must agree.  Aggregations keep the function, keys and
 * constant arguments of their first use.  Errors carry DTrace's tags.
 */
#include <ctype.h>
#include <limits.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"
#include "ks.h"

#define STRSIZE 256 /* the default strsize, for sizeof(string) */

/* What the checker knows about the clause it is in. */
typedef struct dt_cctx {
	dt_node_t *cc_clause;
	bool cc_stmt;	/* checking a statement (actions are allowed) */
	bool cc_lhs;	/* checking the target of an assignment */
	bool cc_pred;	/* in the predicate */
	bool cc_aggkey; /* an aggregation key: stack() and func() are allowed */
	bool cc_index;	/* the array being indexed: an array name is fine */
	/* speculation state of the clause, for DTrace's ordering rules */
	bool cc_data, cc_spec, cc_commit;
	/* args[] of the clause's probes, from provider definitions */
	int cc_nargs;	      /* -1: unknown (no provider definition matches) */
	dt_node_t *cc_pdesc;  /* the description being compiled */
	const char *cc_pname; /* the probe it names, for messages: "myp:::go" */
	const dt_probedecl_t *cc_probe;
	const dt_provdecl_t *cc_prov;
	bool *cc_usesargs; /* set when args[] is used (copies of the context share it) */
} dt_cctx_t;

static void check(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx);

/* ---------------------------------------------------------------- helpers */

static dt_type_t *type_named(dt_pcb_t *pcb, const char *name)
{
	size_t n = strlen(name);
	dt_type_t *t;

	if (n > 2 && strcmp(name + n - 2, " *") == 0) { /* "void *", "psinfo_t *" */
		char base[64];

		snprintf(base, sizeof(base), "%.*s", (int)(n - 2), name);
		t = dt_type_lookup(pcb->pcb_types, base);
		if (t != NULL)
			t = dt_type_pointer(pcb->pcb_types, t);
	} else {
		t = dt_type_lookup(pcb->pcb_types, name);
	}
	if (t == NULL)
		dt_cnomem(pcb);
	return t;
}

static const char *tname(dt_pcb_t *pcb, const dt_type_t *t)
{
	size_t n;
	char *buf;

	if (t == NULL)
		return "<no type>";
	n = dt_type_name(t, NULL, 0);
	buf = dt_palloc(pcb, n + 1);
	dt_type_name(t, buf, n + 1);
	return buf;
}

dt_ident_t *dt_ident_lookup(dt_strset_t *ss, const char *name)
{
	return ss != NULL ? (dt_ident_t *)dt_strset_get(ss, name) : NULL;
}

dt_ident_t *dt_ident_add(dt_pcb_t *pcb, dt_strset_t *ss, const char *name, dt_idkind_t kind,
			 const dt_loc_t *loc)
{
	dt_ident_t *id = dt_palloc(pcb, sizeof(*id));

	id->di_kind = kind;
	id->di_name = name;
	id->di_loc = *loc;
	id->di_nkeys = -1;
	if (dt_strset_put(ss, name, id) != 0)
		dt_cnomem(pcb);
	return id;
}

void dt_idents_init(dt_pcb_t *pcb)
{
	size_t n;
	const dt_builtin_t *b = dt_builtin_table(&n);
	dt_loc_t none = { "<built-in>", 0, 0, 0 };

	if ((pcb->pcb_globals = dt_strset_create(pcb->pcb_arena)) == NULL ||
	    (pcb->pcb_selfs = dt_strset_create(pcb->pcb_arena)) == NULL ||
	    (pcb->pcb_thiss = dt_strset_create(pcb->pcb_arena)) == NULL ||
	    (pcb->pcb_aggs = dt_strset_create(pcb->pcb_arena)) == NULL)
		dt_cnomem(pcb);
	for (size_t i = 0; i < n; i++) {
		dt_ident_t *id;

		/* procfs.d's inlines take their place */
		if (pcb->pcb_nops &&
		    (b[i].db_id == DT_B_CURPSINFO || b[i].db_id == DT_B_CURLWPSINFO))
			continue;
		id = dt_ident_add(pcb, pcb->pcb_globals, b[i].db_name,
				  b[i].db_kind == DB_VAR ? DT_IDENT_BUILTIN : DT_IDENT_FUNC, &none);
		id->di_func = &b[i];
		if (b[i].db_kind == DB_VAR && b[i].db_type != NULL)
			id->di_type = type_named(pcb, b[i].db_type);
		id->di_flags = DT_IDF_DECLARED | DT_IDF_ASSIGNED;
	}
	/*
	 * inline long NULL = 0, as DTrace hard-wires it; the address families
	 * illumos /usr/lib/dtrace/net.d defines as inline ints, with Linux's
	 * values (AF_INET6 is 26 on illumos, 10 here, as a sockaddr's family
	 * reads on Linux: inet_ntop() takes both).
	 */
	static const struct {
		const char *name, *type;
		int64_t value;
	} consts[] = { { "NULL", "long", 0 }, { "AF_INET", "int", 2 }, { "AF_INET6", "int", 10 } };

	for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++) {
		dt_ident_t *id =
		    dt_ident_add(pcb, pcb->pcb_globals, consts[i].name, DT_IDENT_ENUM, &none);

		id->di_type = type_named(pcb, consts[i].type);
		id->di_value = consts[i].value;
		id->di_flags = DT_IDF_DECLARED | DT_IDF_ASSIGNED;
	}
}

/*
 * The identifier of the built-in function, action or aggregating function a
 * call names, or NULL (not a call, or not one of those).  Its di_func is the
 * row: the built-ins' names were resolved once, by dt_idents_init.
 */
static dt_ident_t *called(dt_pcb_t *pcb, const dt_node_t *n)
{
	dt_ident_t *id;

	if (n->dn_kind != DT_N_CALL)
		return NULL;
	id = dt_ident_lookup(pcb->pcb_globals, n->dn_name);
	return id != NULL && id->di_kind == DT_IDENT_FUNC ? id : NULL;
}

static dt_node_t *const_int(dt_node_t *n, int64_t v, dt_type_t *t)
{
	n->dn_value = (uint64_t)v;
	n->dn_flags |= DT_NF_CONST;
	n->dn_type = t;
	return n;
}

/* The type of an integer constant, as C gives it (decimal: int, long; others may be unsigned). */
static dt_type_t *int_const_type(dt_pcb_t *pcb, const dt_node_t *n)
{
	uint64_t v = n->dn_value;
	int f = n->dn_intflags;

	if (f == -1) /* character constant */
		return type_named(pcb, "int");
	/* the first type that holds it: int, unsigned int (hex and octal), long, unsigned long */
	if (f & DT_INT_UNSIGNED)
		return type_named(pcb, (f & (DT_INT_LONG | DT_INT_LONGLONG)) || v > UINT32_MAX
					   ? "unsigned long"
					   : "unsigned int");
	if (!(f & (DT_INT_LONG | DT_INT_LONGLONG)) && v <= INT32_MAX)
		return type_named(pcb, "int");
	if (!(f & (DT_INT_LONG | DT_INT_LONGLONG)) && (f & DT_INT_NONDEC) && v <= UINT32_MAX)
		return type_named(pcb, "unsigned int");
	if (v <= INT64_MAX)
		return type_named(pcb, "long");
	return type_named(pcb, "unsigned long");
}

/* C's integer promotions and usual arithmetic conversions, LP64. */
static dt_type_t *arith_type(dt_pcb_t *pcb, const dt_type_t *a, const dt_type_t *b)
{
	size_t sa = dt_type_size(a), sb = dt_type_size(b);
	bool ua = !dt_type_is_signed(a), ub = !dt_type_is_signed(b);

	if (sa < 4) {
		sa = 4;
		ua = false;
	}
	if (sb < 4) {
		sb = 4;
		ub = false;
	}
	if (sa == 8 || sb == 8)
		return type_named(pcb,
				  (sa == 8 && ua) || (sb == 8 && ub) ? "unsigned long" : "long");
	return type_named(pcb, ua || ub ? "unsigned int" : "int");
}

static dt_type_t *promote(dt_pcb_t *pcb, const dt_type_t *a)
{
	return arith_type(pcb, a, type_named(pcb, "int"));
}

/* Reduce v to the width and sign of t, as storing it there would. */
static int64_t truncate_to(const dt_type_t *t, int64_t v)
{
	size_t sz = dt_type_size(t);

	if (sz >= 8 || sz == 0)
		return v;
	if (dt_type_is_signed(t)) {
		int shift = (int)(64 - 8 * sz);

		return (int64_t)((uint64_t)v << shift) >> shift;
	}
	return (int64_t)((uint64_t)v & ((1ULL << (8 * sz)) - 1));
}

bool dt_node_const(dt_pcb_t *pcb, dt_node_t *n, int64_t *v)
{
	dt_cctx_t cx = { 0 };

	cx.cc_nargs = -1;
	check(pcb, n, &cx);
	if (!(n->dn_flags & DT_NF_CONST))
		return false;
	*v = (int64_t)n->dn_value;
	return true;
}

/* ---------------------------------------------------------------- probes and args[] */

/*
 * Split "provider:module:function:name"; fewer fields are the trailing
 * ones (a lone "BEGIN" is a name).  False if there are more than four.
 */
static bool split_pdesc(char *s, const char *f[4])
{
	char *parts[5];
	int n = 0;

	parts[n++] = s;
	for (char *p = s; *p; p++) {
		if (*p == ':') {
			if (n == 4)
				return false;
			*p = '\0';
			parts[n++] = p + 1;
		}
	}
	for (int i = 0; i < 4; i++)
		f[i] = "";
	for (int i = 0; i < n; i++)
		f[4 - n + i] = parts[i];
	return true;
}

static bool glob_match(const char *pat, const char *s)
{
	return *pat == '\0' || fnmatch(pat, s, 0) == 0;
}

dt_xlator_t *dt_find_xlator(dt_pcb_t *pcb, const dt_type_t *from, const dt_type_t *to)
{
	const dt_type_t *r = dt_type_resolve(to);

	for (dt_xlator_t *x = pcb->pcb_xlators; x != NULL; x = x->dx_next)
		if (dt_type_compatible(x->dx_from, from) &&
		    (dt_type_compatible(x->dx_to, to) ||
		     (dt_type_is_ptr(r) && dt_type_compatible(x->dx_to, r->dtt_ref))))
			return x;
	return NULL;
}

/*
 * The probes one probe description of a clause enables, as far as the
 * program knows them: BEGIN, END, ERROR and the profile provider's
 * probes have no typed arguments; USDT probes have those of their provider
 * definition.  A user provider's name may carry a process ID suffix
 * (myserv1234) or a glob; probe names are matched in their DTrace form
 * (query-start).  DTrace compiles a clause once per description, and so
 * do we: args[] may differ between descriptions, not within one.
 */
static void pdesc_args(dt_pcb_t *pcb, dt_node_t *pd, dt_cctx_t *cx)
{
	size_t len = strlen(pd->dn_name);
	char *copy = dt_palloc(pcb, len + 1);
	const char *f[4];

	cx->cc_nargs = -1;
	cx->cc_probe = NULL;
	cx->cc_prov = NULL;
	cx->cc_pdesc = pd;
	memcpy(copy, pd->dn_name, len + 1);
	if (!split_pdesc(copy, f))
		dt_cerror(pcb, &pd->dn_loc, "D_PDESC_INVAL",
			  "invalid probe description \"%s\": more than four fields", pd->dn_name);
	for (int i = 0; i < 4; i++)
		/* DTrace's limits: provider 64, module 64, function 192, name 64, with the NUL */
		if (strlen(f[i]) >= (size_t)(i == 2 ? 192 : 64))
			dt_cerror(pcb, &pd->dn_loc, "D_PDESC_INVAL",
				  "invalid probe description \"%s\": its %s is too long",
				  pd->dn_name,
				  i == 0   ? "provider"
				  : i == 1 ? "module"
				  : i == 2 ? "function"
					   : "name");
	cx->cc_pname = pd->dn_name;
	if ((f[0][0] == '\0' || strcmp(f[0], "dtrace") == 0) &&
	    (strcmp(f[3], "BEGIN") == 0 || strcmp(f[3], "END") == 0 ||
	     strcmp(f[3], "ERROR") == 0)) {
		cx->cc_nargs = 0;
		cx->cc_pname = f[3][0] == 'B'			  ? "dtrace:::BEGIN"
			       : f[3][0] == 'E' && f[3][1] == 'N' ? "dtrace:::END"
								  : "dtrace:::ERROR";
		return;
	}
	if ((f[0][0] == '\0' || strcmp(f[0], "profile") == 0) &&
	    (strncmp(f[3], "tick-", 5) == 0 || strncmp(f[3], "profile-", 8) == 0)) {
		size_t n = strlen(f[3]) + 16;
		char *name = dt_palloc(pcb, n);

		snprintf(name, n, "profile:::%s", f[3]);
		cx->cc_pname = name;
		cx->cc_nargs = 0;
		return;
	}
	for (dtrace_prog_t *pgp = pcb->pcb_hdl->dt_progs;; pgp = pgp->dp_next) {
		const dtrace_prog_t *prog = pgp != NULL ? pgp : pcb->pcb_prog;

		for (const dt_provdecl_t *pv = prog->dp_providers; pv != NULL; pv = pv->pv_next) {
			size_t pl = strlen(pv->pv_name);
			bool provok = glob_match(f[0], pv->pv_name) ||
				      (strncmp(f[0], pv->pv_name, pl) == 0 && f[0][pl] != '\0' &&
				       strspn(f[0] + pl, "0123456789*") == strlen(f[0] + pl));

			if (!provok)
				continue;
			for (const dt_probedecl_t *p = pv->pv_probes; p != NULL; p = p->pd_next) {
				bool same =
				    cx->cc_probe != NULL && cx->cc_probe->pd_xargc == p->pd_xargc;

				if (!glob_match(f[3], p->pd_dname))
					continue;
				for (int i = 0; same && i < p->pd_xargc; i++)
					same = dt_type_compatible(cx->cc_probe->pd_xargs[i].pa_type,
								  p->pd_xargs[i].pa_type);
				if (same)
					continue;
				if (cx->cc_probe != NULL) {
					cx->cc_nargs = -2; /* an unstable set of probes */
					continue;
				}
				cx->cc_probe = p;
				cx->cc_prov = pv;
				cx->cc_nargs = p->pd_xargc;
				{
					size_t n = strlen(pv->pv_name) + strlen(p->pd_dname) + 4;
					char *name = dt_palloc(pcb, n);

					snprintf(name, n, "%s:::%s", pv->pv_name, p->pd_dname);
					cx->cc_pname = name;
				}
			}
		}
		if (pgp == NULL)
			break;
	}
}

/*
 * args[] of probes no provider definition of the program declares, from
 * the descriptions their provider gives (pi_args): a probe declaration
 * made of them, types read from the providers' C spelling.  A type D
 * does not know leaves that argument without one (D_ARGS_TYPE where used).
 */
static void table_args(dt_pcb_t *pcb, dt_cctx_t *cx)
{
	dtrace_probedesc_t desc;
	const dt_pinfo_t *pi;
	dt_probedecl_t *pd;
	bool xl = false;
	int rc;

	if (dtrace_str2desc(pcb->pcb_hdl, DTRACE_PROBESPEC_NONE, cx->cc_pdesc->dn_name, &desc) != 0)
		return;
	if ((rc = dt_probe_argdescs(pcb->pcb_hdl, &desc, &pi)) == 0)
		return;
	if (rc < 0) {
		cx->cc_nargs = -2;
		return;
	}
	pd = dt_palloc(pcb, sizeof(*pd));
	pd->pd_name = pd->pd_dname = cx->cc_pdesc->dn_name;
	pd->pd_nargc = pd->pd_xargc = pi->pi_nargs;
	pd->pd_nargs = dt_palloc(pcb, sizeof(dt_probearg_t) * (size_t)(pi->pi_nargs + 1));
	for (int i = 0; i < pi->pi_nargs; i++) {
		char name[16];

		/* the mapping, as the by-name rule of dt_probe_argmap() reads it */
		snprintf(name, sizeof(name), "%d", i);
		pd->pd_nargs[i].pa_name = dt_arena_strndup(pcb->pcb_arena, name, strlen(name));
		pd->pd_nargs[i].pa_type =
		    dt_type_parse_string(pcb->pcb_types, pi->pi_args[i].native);
		xl |= pi->pi_args[i].xlate != NULL;
	}
	pd->pd_xargs = pd->pd_nargs;
	if (xl) {
		pd->pd_xargs = dt_palloc(pcb, sizeof(dt_probearg_t) * (size_t)pi->pi_nargs);
		for (int i = 0; i < pi->pi_nargs; i++) {
			const dt_argdesc_t *a = &pi->pi_args[i];
			char name[16];

			snprintf(name, sizeof(name), "%d", a->mapping);
			pd->pd_xargs[i].pa_name =
			    dt_arena_strndup(pcb->pcb_arena, name, strlen(name));
			pd->pd_xargs[i].pa_type = dt_type_parse_string(
			    pcb->pcb_types, a->xlate != NULL ? a->xlate : a->native);
		}
	}
	cx->cc_probe = pd;
	cx->cc_nargs = pi->pi_nargs;
}

/*
 * A translated args[i] becomes what illumos makes of it,
 * xlate<T>((native type)argK): args[0]->pr_pid of proc:::create reads the
 * psinfo_t procfs.d's translator makes of the child's struct task_struct *.
 */
static void xlate_arg(dt_pcb_t *pcb, dt_node_t *n, int k, dt_type_t *from, dt_cctx_t *cx)
{
	dt_node_t *arg, *cast, *x, *next = n->dn_next;
	char name[16];

	if (k > DT_B_ARG9 - DT_B_ARG0)
		dt_cerror(pcb, &n->dn_loc, "D_UNSUPPORTED",
			  "args[ ] translated from native argument %d is not supported: "
			  "arg0 to arg9 are",
			  k);
	snprintf(name, sizeof(name), "arg%d", k);
	arg = dt_node_alloc(pcb, DT_N_IDENT, &n->dn_loc);
	arg->dn_name = dt_arena_strndup(pcb->pcb_arena, name, strlen(name));
	cast = dt_node_alloc(pcb, DT_N_CAST, &n->dn_loc);
	cast->dn_type = from;
	cast->dn_left = arg;
	x = dt_node_alloc(pcb, DT_N_XLATE, &n->dn_loc);
	x->dn_type = n->dn_type;
	x->dn_left = cast;
	check(pcb, x, cx);
	*n = *x;
	n->dn_next = next;
}

/* args[i]: the translated type of argument i of the clause's probes. */
static void check_args(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_node_t *idx = n->dn_args;
	int64_t i;
	int k;

	if (cx->cc_pdesc == NULL)
		dt_cerror(pcb, &n->dn_loc, "D_ARGS_NONE",
			  "args[ ] may not be referenced outside of a probe clause");
	if (idx->dn_next != NULL)
		dt_cerror(pcb, &n->dn_loc, "D_PROTO_LEN", "args[ ] takes one index");
	check(pcb, idx, cx);
	if (!(idx->dn_flags & DT_NF_CONST) || !dt_type_is_int(idx->dn_type))
		dt_cerror(pcb, &idx->dn_loc, "D_PROTO_ARG",
			  "args[ ] index must be an integer constant");
	i = (int64_t)idx->dn_value;
	if (cx->cc_nargs == -1)
		table_args(pcb, cx);
	if (cx->cc_nargs == -2)
		dt_cerror(pcb, &n->dn_loc, "D_ARGS_MULTI",
			  "args[ ] is ambiguous: %s matches probes with different argument types",
			  cx->cc_pdesc->dn_name);
	if (cx->cc_nargs == -1)
		dt_cerror(pcb, &n->dn_loc, "D_ARGS_NONE",
			  "args[ ] is not available for %s: no provider definition in the program "
			  "describes its arguments",
			  cx->cc_pdesc->dn_name);
	if (i < 0 || i >= cx->cc_nargs)
		dt_cerror(pcb, &idx->dn_loc, "D_ARGS_IDX",
			  "index %lld is out of range for %s args[ ] (%d argument%s)", (long long)i,
			  cx->cc_pname, cx->cc_nargs, cx->cc_nargs == 1 ? "" : "s");
	if (cx->cc_usesargs != NULL)
		*cx->cc_usesargs = true;
	n->dn_type = cx->cc_probe->pd_xargs[i].pa_type;
	if (n->dn_type == NULL) {
		dtrace_probedesc_t desc;
		const dt_pinfo_t *pi = NULL;

		if (dtrace_str2desc(pcb->pcb_hdl, DTRACE_PROBESPEC_NONE, cx->cc_pdesc->dn_name,
				    &desc) == 0)
			(void)dt_probe_argdescs(pcb->pcb_hdl, &desc, &pi);
		dt_cerror(pcb, &n->dn_loc, "D_ARGS_TYPE",
			  "args[%lld] of %s has type %s, which D does not know", (long long)i,
			  cx->cc_pname,
			  pi != NULL ? (pi->pi_args[i].xlate != NULL ? pi->pi_args[i].xlate
								     : pi->pi_args[i].native)
				     : "?");
	}
	k = dt_probe_argmap(cx->cc_probe, (int)i);
	if (cx->cc_probe->pd_xargs != cx->cc_probe->pd_nargs && k < cx->cc_probe->pd_nargc) {
		const dt_type_t *from = cx->cc_probe->pd_nargs[k].pa_type;

		if (from == NULL) /* a provider's native type D does not know */
			dt_cerror(pcb, &n->dn_loc, "D_ARGS_TYPE",
				  "args[%lld] of %s is translated from a type D does not know",
				  (long long)i, cx->cc_pname);
		if (!dt_type_compatible(n->dn_type, from) &&
		    dt_find_xlator(pcb, from, n->dn_type) == NULL)
			dt_cerror(pcb, &n->dn_loc, "D_ARGS_XLATOR",
				  "translator for args[%lld] from %s to %s is not defined",
				  (long long)i, tname(pcb, from), tname(pcb, n->dn_type));
		if (!dt_type_compatible(n->dn_type, from)) {
			xlate_arg(pcb, n, k, (dt_type_t *)from, cx);
			return;
		}
		idx->dn_value = (uint64_t)k; /* the native argument it is */
	}
	n->dn_flags = DT_NF_LVALUE;
}

/* ---------------------------------------------------------------- variables */

static dt_strset_t *scope_table(dt_pcb_t *pcb, dt_nkind_t k)
{
	return k == DT_N_SELF ? pcb->pcb_selfs : k == DT_N_THIS ? pcb->pcb_thiss : pcb->pcb_globals;
}

static const char *scope_prefix(dt_nkind_t k)
{
	return k == DT_N_SELF ? "self->" : k == DT_N_THIS ? "this->" : "";
}

/* A variable reference: a global (n is IDENT) or self->/this-> (n is MEMBER). */
static dt_ident_t *variable(dt_pcb_t *pcb, dt_node_t *n, dt_nkind_t scope, const char *name,
			    dt_cctx_t *cx)
{
	dt_strset_t *ss = scope_table(pcb, scope);
	dt_ident_t *id = dt_ident_lookup(ss, name);

	if (id == NULL && !cx->cc_lhs && scope == DT_N_IDENT) {
		/*
		 * an enumerator of the kernel's (PIDTYPE_PGID, or true): an
		 * integer constant.  Only a name read before any declaration or
		 * assignment gets here, an enumerator or D_IDENT_UNDEF: n = 1 and
		 * n++ declare n and read no BTF (integration.dlib BtfOnlyWhenNeeded).
		 */
		ks_btf_t *b = dt_btf(pcb->pcb_hdl);
		int64_t v;

		if (b != NULL && ks_btf_enumerator_find(b, name, &v) > 0) {
			id = dt_ident_add(pcb, ss, name, DT_IDENT_ENUM, &n->dn_loc);
			id->di_type =
			    type_named(pcb, v > INT32_MAX || v < INT32_MIN ? "long" : "int");
			id->di_value = v;
			id->di_flags = DT_IDF_DECLARED | DT_IDF_ASSIGNED;
			return id;
		}
	}
	if (id == NULL) {
		if (!cx->cc_lhs && scope != DT_N_IDENT)
			dt_cerror(pcb, &n->dn_loc, "D_VAR_UNDEF",
				  "%s%s has not yet been declared or assigned", scope_prefix(scope),
				  name);
		if (!cx->cc_lhs)
			dt_cerror(pcb, &n->dn_loc, "D_IDENT_UNDEF",
				  "failed to resolve %s: Unknown variable name", name);
		id = dt_ident_add(pcb, ss, name, DT_IDENT_SCALAR, &n->dn_loc);
	}
	return id;
}

/* The type a variable takes from the first value assigned to it. */
static dt_type_t *stored_type(dt_pcb_t *pcb, const dt_node_t *rhs)
{
	const dt_type_t *r = dt_type_resolve(rhs->dn_type);

	if (r->dtt_kind == DT_TK_ARRAY && dt_type_size(r->dtt_ref) == 1 &&
	    dt_type_is_int(r->dtt_ref))
		return type_named(pcb, "string"); /* a char array is kept as a string */
	if (rhs->dn_kind == DT_N_INT && (rhs->dn_flags & DT_NF_CONST))
		return rhs->dn_type;
	return rhs->dn_type;
}

static void check_keys(dt_pcb_t *pcb, dt_node_t *n, dt_ident_t *id, const char *what, dt_cctx_t *cx)
{
	int nk = 0;
	dt_cctx_t kcx = *cx;

	kcx.cc_lhs = false;
	kcx.cc_stmt = false;
	kcx.cc_aggkey = id->di_kind == DT_IDENT_AGG; /* stack() and func() may be keys */
	for (dt_node_t *k = n->dn_args; k != NULL; k = k->dn_next, nk++) {
		const dt_type_t *r;

		check(pcb, k, &kcx);
		r = dt_type_resolve(k->dn_type);
		if (r == NULL || r->dtt_kind == DT_TK_VOID || r->dtt_kind == DT_TK_FLOAT)
			dt_cerror(pcb, &k->dn_loc, "D_KEY_TYPE",
				  "%s key #%d is of a type that cannot be a key: %s", what, nk + 1,
				  tname(pcb, k->dn_type));
		if (nk >= DT_MAXPROBEARGS)
			dt_cerror(pcb, &k->dn_loc, "D_ARR_BADREF", "%s has more than %d keys", what,
				  DT_MAXPROBEARGS);
		if (id->di_nkeys < 0)
			continue;
		if (nk < id->di_nkeys && !dt_type_compatible(id->di_keys[nk], k->dn_type))
			dt_cerror(pcb, &k->dn_loc, "D_PROTO_ARG",
				  "%s key #%d is incompatible with its earlier use: %s, not %s",
				  what, nk + 1, tname(pcb, k->dn_type),
				  tname(pcb, id->di_keys[nk]));
	}
	if (id->di_nkeys >= 0 && nk != id->di_nkeys)
		dt_cerror(pcb, &n->dn_loc, "D_PROTO_LEN",
			  "%s has %d key%s here but %d at its first use (line %u)", what, nk,
			  nk == 1 ? "" : "s", id->di_nkeys, id->di_loc.line);
	if (id->di_nkeys < 0) {
		id->di_nkeys = nk;
		nk = 0;
		for (dt_node_t *k = n->dn_args; k != NULL; k = k->dn_next)
			id->di_keys[nk++] = k->dn_type;
	}
}

/* ---------------------------------------------------------------- aggregations */

static dt_node_t *nth(dt_node_t *list, int i)
{
	while (list != NULL && i-- > 0)
		list = list->dn_next;
	return list;
}

static int count_list(const dt_node_t *n)
{
	int c = 0;

	for (; n != NULL; n = n->dn_next)
		c++;
	return c;
}

/*
 * DTrace's words for a wrong argument count: "f( ) prototype mismatch: 3
 * args passed, at most 2 expected"; what is "f( )" or "uregs[ ]", word ""
 * for a fixed count, else "at most ", "at least " or "no more than ".
 */
static _Noreturn void proto_len(dt_pcb_t *pcb, const dt_loc_t *loc, const char *tag,
				const char *name, const char *brackets, int na, const char *word,
				int want)
{
	dt_cerror(pcb, loc, tag, "%s%s prototype mismatch: %d arg%s passed, %s%d expected", name,
		  brackets, na, na == 1 ? "" : "s", word, want);
}

/*
 * The constant arguments of lquantize and llquantize: checked and compared,
 * in illumos dt_compile_agg's order and words (dt_cc.c).
 */
static void agg_constants(dt_pcb_t *pcb, dt_node_t *call, dt_ident_t *id, const char *aname)
{
	bool lq = id->di_func->db_id == DT_B_LQUANTIZE, llq = id->di_func->db_id == DT_B_LLQUANTIZE;
	int64_t c[4] = { 0, 0, 1, 1 };
	int nc = lq ? 3 : 4;

	(void)aname;
	if (!lq && !llq)
		return;
	if (lq) {
		dt_node_t *a1 = nth(call->dn_args, 1), *a2 = nth(call->dn_args, 2),
			  *a3 = nth(call->dn_args, 3);

		if (a1 == NULL || a2 == NULL)
			return;
		if (!(a1->dn_flags & DT_NF_CONST) || !dt_type_is_int(a1->dn_type))
			dt_cerror(pcb, &a1->dn_loc, "D_LQUANT_BASETYPE",
				  "lquantize( ) argument #1 must be an integer constant");
		c[0] = (int64_t)a1->dn_value;
		if (c[0] < INT32_MIN || c[0] > INT32_MAX)
			dt_cerror(pcb, &a1->dn_loc, "D_LQUANT_BASEVAL",
				  "lquantize( ) argument #1 must be a 32-bit quantity");
		if (!(a2->dn_flags & DT_NF_CONST) || !dt_type_is_int(a2->dn_type))
			dt_cerror(pcb, &a2->dn_loc, "D_LQUANT_LIMTYPE",
				  "lquantize( ) argument #2 must be an integer constant");
		c[1] = (int64_t)a2->dn_value;
		if (c[1] < INT32_MIN || c[1] > INT32_MAX)
			dt_cerror(pcb, &a2->dn_loc, "D_LQUANT_LIMVAL",
				  "lquantize( ) argument #2 must be a 32-bit quantity");
		if (c[1] < c[0])
			dt_cerror(pcb, &call->dn_loc, "D_LQUANT_MISMATCH",
				  "lquantize( ) base (argument #1) must be less than limit "
				  "(argument #2)");
		if (a3 != NULL) {
			if (!(a3->dn_flags & DT_NF_CONST) || !dt_type_is_int(a3->dn_type) ||
			    (int64_t)a3->dn_value <= 0)
				dt_cerror(pcb, &a3->dn_loc, "D_LQUANT_STEPTYPE",
					  "lquantize( ) argument #3 must be a non-zero positive "
					  "integer constant");
			c[2] = (int64_t)a3->dn_value;
			if (c[2] > UINT16_MAX)
				dt_cerror(pcb, &a3->dn_loc, "D_LQUANT_STEPVAL",
					  "lquantize( ) argument #3 must be a 16-bit quantity");
		}
		if ((c[1] - c[0]) / c[2] == 0)
			dt_cerror(pcb, &call->dn_loc, "D_LQUANT_STEPLARGE",
				  "lquantize( ) step (argument #3) too large: must have at least "
				  "one quantization level");
		if ((c[1] - c[0]) / c[2] > UINT16_MAX)
			dt_cerror(pcb, &call->dn_loc, "D_LQUANT_STEPSMALL",
				  "lquantize( ) step (argument #3) too small: number of "
				  "quantization levels must be a 16-bit quantity");
		/* DTrace keeps base, number of levels and step, not the upper bound */
		c[1] = (c[1] - c[0]) / c[2];
	} else {
		static const char *const llqtag[][2] = {
			{ "D_LLQUANT_FACTORTYPE", "D_LLQUANT_FACTORVAL" },
			{ "D_LLQUANT_LOWTYPE", "D_LLQUANT_LOWVAL" },
			{ "D_LLQUANT_HIGHTYPE", "D_LLQUANT_HIGHVAL" },
			{ "D_LLQUANT_NSTEPTYPE", "D_LLQUANT_NSTEPVAL" }
		};
		static const char *const llqname[] = { "factor", "low magnitude", "high magnitude",
						       "linear steps per magnitude" };
		int64_t factor, low, high, nsteps;
		uint64_t g, p = 1;

		for (int i = 0; i < 4; i++) {
			dt_node_t *a = nth(call->dn_args, i + 1);

			if (a == NULL)
				return;
			if (!(a->dn_flags & DT_NF_CONST) || !dt_type_is_int(a->dn_type))
				dt_cerror(pcb, &a->dn_loc, llqtag[i][0],
					  "llquantize( ) argument #%d (%s) must be an integer "
					  "constant",
					  i + 1, llqname[i]);
			if (a->dn_value > UINT16_MAX)
				dt_cerror(pcb, &a->dn_loc, llqtag[i][1],
					  "llquantize( ) argument #%d (%s) must be an unsigned "
					  "16-bit quantity",
					  i + 1, llqname[i]);
			c[i] = (int64_t)a->dn_value;
		}
		factor = c[0], low = c[1], high = c[2], nsteps = c[3];
		if (factor < 2)
			dt_cerror(pcb, &call->dn_loc, "D_LLQUANT_FACTORSMALL",
				  "llquantize( ) factor (argument #1) must be two or more");
		if (low >= high)
			dt_cerror(pcb, &call->dn_loc, "D_LLQUANT_MAGRANGE",
				  "llquantize( ) high magnitude (argument #3) must be greater than "
				  "low magnitude (argument #2)");
		if (nsteps < factor)
			dt_cerror(pcb, &call->dn_loc, "D_LLQUANT_FACTORNSTEPS",
				  "llquantize( ) factor (argument #1) must be less than or equal "
				  "to the number of linear steps per magnitude (argument #4)");
		/* the factor divides the steps, which divide a power of the factor */
		for (g = (uint64_t)factor; g < (uint64_t)nsteps; g *= (uint64_t)factor)
			;
		if (nsteps % factor != 0 || g % (uint64_t)nsteps != 0)
			dt_cerror(
			    pcb, &call->dn_loc, "D_LLQUANT_FACTOREVEN",
			    "llquantize( ) factor (argument #1) must evenly divide the number of "
			    "steps per magnitude (argument #4), and the number of steps per "
			    "magnitude must evenly divide a power of the factor");
		/* factor raised to the high magnitude plus one must fit, as DTrace counts */
		for (int64_t i = 0; i <= high + 1; i++) {
			if (p * (uint64_t)factor > p) {
				p *= (uint64_t)factor;
				continue;
			}
			dt_cerror(
			    pcb, &call->dn_loc, "D_LLQUANT_MAGTOOBIG",
			    "llquantize( ) factor (%lld) raised to power of high magnitude (%lld) "
			    "plus 1 overflows 64-bits",
			    (long long)factor, (long long)high);
		}
	}
	if (id->di_nargs == 0) {
		memcpy(id->di_aggargs, c, sizeof(c));
		id->di_nargs = nc;
		return;
	}
	if (lq) {
		/* base, then the limit (base + levels * step), then the step */
		int64_t ob = id->di_aggargs[0], on = id->di_aggargs[1], os = id->di_aggargs[2];

		if (ob != c[0])
			dt_cerror(pcb, &call->dn_loc, "D_LQUANT_MATCHBASE",
				  "lquantize( ) base (argument #1) doesn't match previous "
				  "declaration: expected %d, found %d",
				  (int)ob, (int)c[0]);
		if (on * os != c[1] * c[2])
			dt_cerror(pcb, &call->dn_loc, "D_LQUANT_MATCHLIM",
				  "lquantize( ) limit (argument #2) doesn't match previous "
				  "declaration: expected %d, found %d",
				  (int)(ob + on * os), (int)(c[0] + c[1] * c[2]));
		if (os != c[2])
			dt_cerror(pcb, &call->dn_loc, "D_LQUANT_MATCHSTEP",
				  "lquantize( ) step (argument #3) doesn't match previous "
				  "declaration: expected %d, found %d",
				  (int)os, (int)c[2]);
		return;
	}
	for (int i = 0; i < nc; i++) {
		static const char *const llqm[] = { "D_LLQUANT_FACTORMATCH", "D_LLQUANT_LOWMATCH",
						    "D_LLQUANT_HIGHMATCH", "D_LLQUANT_NSTEPMATCH" };
		static const char *const llqname[] = { "factor", "low magnitude", "high magnitude",
						       "linear steps per magnitude" };

		if (c[i] != id->di_aggargs[i])
			dt_cerror(pcb, &call->dn_loc, llqm[i],
				  "llquantize( ) %s (argument #%d) doesn't match previous "
				  "declaration: expected %d, found %d",
				  llqname[i], i + 1, (int)id->di_aggargs[i], (int)c[i]);
	}
}

/* @name[keys] = function(args) */
static void check_aggregation(dt_pcb_t *pcb, dt_node_t *asg, dt_cctx_t *cx)
{
	dt_node_t *lhs = asg->dn_left, *call = asg->dn_right;
	dt_node_t *agg = lhs->dn_kind == DT_N_INDEX ? lhs->dn_left : lhs;
	dt_ident_t *fid = called(pcb, call), *id;
	const dt_builtin_t *b;
	char what[80];

	if (asg->dn_op != T_ASSIGN)
		dt_cerror(pcb, &asg->dn_loc, "D_AGG_FUNC",
			  "@%s: an aggregation is assigned with '=' and an aggregating function",
			  agg->dn_name);
	if (fid == NULL || fid->di_func->db_kind != DB_AGGFUNC)
		dt_cerror(pcb, &call->dn_loc, "D_AGG_FUNC",
			  "@%s: an aggregating function (count, sum, quantize...) is required",
			  agg->dn_name);
	b = fid->di_func;
	call->dn_ident = fid;
	if (cx->cc_commit)
		dt_cerror(pcb, &asg->dn_loc, "D_AGG_COMM",
			  "aggregating actions may not follow commit( )");
	if (cx->cc_spec)
		dt_cerror(pcb, &asg->dn_loc, "D_AGG_SPEC",
			  "aggregating actions may not follow speculate( )");
	snprintf(what, sizeof(what), "@%s", agg->dn_name);
	id = dt_ident_lookup(pcb->pcb_aggs, agg->dn_name);
	if (id == NULL) {
		id = dt_ident_add(pcb, pcb->pcb_aggs, agg->dn_name, DT_IDENT_AGG, &agg->dn_loc);
		id->di_func = b;
	} else if (id->di_func != b) {
		dt_cerror(pcb, &call->dn_loc, "D_AGG_REDEF",
			  "@%s: aggregation redefined as %s( ); it is %s( ) (line %u)",
			  agg->dn_name, b->db_name, id->di_func->db_name, id->di_loc.line);
	}
	agg->dn_ident = id;
	if (lhs->dn_kind == DT_N_INDEX) {
		check_keys(pcb, lhs, id, what, cx);
	} else if (id->di_nkeys > 0) {
		dt_cerror(pcb, &lhs->dn_loc, "D_PROTO_LEN",
			  "@%s has no keys here but %d at its first use (line %u)", agg->dn_name,
			  id->di_nkeys, id->di_loc.line);
	} else {
		id->di_nkeys = 0;
	}
	/* the function's arguments */
	{
		int na = count_list(call->dn_args), i = 0;
		dt_cctx_t acx = *cx;

		acx.cc_stmt = acx.cc_lhs = false;
		/* DTrace's words: quantize(@, ...) needs 1, and takes 2 at most */
		if (na < b->db_minargs || na > b->db_maxargs)
			proto_len(pcb, &call->dn_loc, "D_PROTO_LEN", b->db_name, "( )", na,
				  na > b->db_maxargs && b->db_maxargs > b->db_minargs ? "at most "
										      : "",
				  na > b->db_maxargs ? b->db_maxargs : b->db_minargs);
		for (dt_node_t *a = call->dn_args; a != NULL; a = a->dn_next, i++) {
			check(pcb, a, &acx);
			if (!dt_type_is_scalar(a->dn_type))
				dt_cerror(pcb, &a->dn_loc, "D_AGG_SCALAR",
					  "%s( ) argument #%d must be of scalar type, not %s",
					  b->db_name, i + 1, tname(pcb, a->dn_type));
		}
		agg_constants(pcb, call, id, agg->dn_name);
	}
	call->dn_type = type_named(pcb, "void");
	asg->dn_type = type_named(pcb, "void");
	if (!cx->cc_spec)
		cx->cc_data = true;
}

/* ---------------------------------------------------------------- printf formats */

/* Is t a string, or an array or pointer of char (what %s prints)? */
static bool stringish(const dt_type_t *t)
{
	const dt_type_t *r = dt_type_resolve(t);

	if (r == NULL)
		return false;
	if (r->dtt_kind == DT_TK_STRING)
		return true;
	return dt_type_is_ptr(r) && dt_type_is_int(r->dtt_ref) && dt_type_size(r->dtt_ref) == 1;
}

/* A call of one of the u* symbol functions: what %A prints without a target process. */
static bool usymaddr(const dt_node_t *a)
{
	if (a->dn_kind != DT_N_CALL || a->dn_ident == NULL || a->dn_ident->di_func == NULL)
		return false;
	switch (a->dn_ident->di_func->db_id) {
	case DT_B_UADDR:
	case DT_B_UFUNC:
	case DT_B_UMOD:
	case DT_B_USYM: return true;
	default: return false;
	}
}

/*
 * Does a value of type t (node a, may be NULL for printa keys) suit the
 * conversion conv with length modifier len ("", "h", "hh", "l", "ll", ...)?
 * As DTrace's printf checks them (dt_printf.c).
 */
static bool conv_ok(const dt_pcb_t *pcb, char conv, const char *len, const dt_type_t *t,
		    const dt_node_t *a)
{
	const dt_type_t *r = dt_type_resolve(t);
	size_t sz = dt_type_size(t);
	/* illumos' stack is a typedef of void: %k takes it (pfcheck_stack), no other does */
	bool stack = t != NULL && t->dtt_name != NULL && strcmp(t->dtt_name, "stack") == 0;

	if (r == NULL)
		return false;
	if (stack)
		return conv == 'k' && a == NULL;
	switch (conv) {
	case 's':
		if (len[0] != '\0') { /* %ls %ws: pfcheck_wstr, an array of 32-bit integers */
			const dt_type_t *e = r->dtt_kind == DT_TK_ARRAY ? r->dtt_ref : NULL;

			return e != NULL && dt_type_is_int(e) && dt_type_size(e) == 4 &&
			       dt_type_resolve(e)->dtt_kind == DT_TK_INT;
		}
		return stringish(t);
	case 'S':
	case 'I': return stringish(t); /* pfcheck_str */
	case 'P':		       /* pfcheck_type "uint16_t" */
		return r->dtt_kind == DT_TK_INT && sz == 2 && !(r->dtt_flags & DT_TF_SIGNED);
	case 'c':
		if (len[0] != '\0') /* %lc %wc: pfcheck_type "int" (a wint_t) */
			return r->dtt_kind == DT_TK_INT && sz == 4 && (r->dtt_flags & DT_TF_SIGNED);
		return dt_type_is_int(t) && sz <= 4;   /* pfcheck_csi */
	case 'C': return dt_type_is_int(t) && sz <= 4; /* pfcheck_csi */
	case 'p': return dt_type_is_scalar(t);
	case 'a': return dt_type_is_scalar(t);
	case 'A': /* pfcheck_uaddr: an address of the target process, or a _usymaddr */
		return (a != NULL && usymaddr(a)) ||
		       (t != NULL && t->dtt_name != NULL &&
			strcmp(t->dtt_name, "_usymaddr") == 0) ||
		       (pcb->pcb_hdl->dt_target != 0 && dt_type_is_scalar(t));
	case 'k': return false; /* a stack (above): only as a printa key */
	case 'Y':
	case 'T': return dt_type_is_int(t) && sz == 8;
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G': /* %Le...: pfcheck_type "long double" */
		return r->dtt_kind == DT_TK_FLOAT && (len[0] != 'L' || sz > 8);
	default: /* d i o u x X */
		if (!dt_type_is_int(t))
			return false;
		if (strcmp(len, "h") == 0)
			return sz == 2;
		if (len[0] != '\0')
			return sz == 8; /* l ll */
		return true;
	}
}

/*
 * What a conversion takes, in words, as the rows of illumos's
 * _dtrace_conversions give it to D_PRINTF_ARG_TYPE's message (pfc_tstr).
 */
static const char *conv_proto(char conv, const char *len)
{
	static const char xint[] = "char, short, int, long, or long long",
			  cstr[] = "char [] or string (or use stringof)";
	bool un = conv == 'o' || conv == 'u';

	switch (conv) {
	case 'a':
	case 'p': return "pointer or integer";
	case 'A': return "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
	case 'c': return len[0] != '\0' ? "int" : "char, short, or int";
	case 'C': return "char, short, or int";
	case 'e':
	case 'E':
	case 'f':
	case 'g':
	case 'G': return len[0] == 'L' ? "long double" : "float, double, or long double";
	case 'I':
	case 'S': return cstr;
	case 's': return len[0] != '\0' ? "wchar_t []" : cstr;
	case 'k': return "stack";
	case 'P': return "uint16_t";
	case 'T':
	case 'Y': return "int64_t";
	default: break;
	}
	if (strcmp(len, "h") == 0)
		return un ? "unsigned short" : "short";
	if (strcmp(len, "l") == 0)
		return un ? "unsigned long" : "long";
	if (strcmp(len, "ll") == 0)
		return un ? "unsigned long long" : "long long";
	return xint;
}

typedef struct fmt_conv {
	char conv;
	char len[7];	 /* h l L w, at most 6 as illumos's name[8] */
	int star;	 /* '*' width and precision arguments before it */
	bool dynw, dynp; /* which: a '*' width, a '*' precision */
	bool agg;	 /* '@': the aggregation's value (printa), a flag as in illumos */
} fmt_conv_t;

/*
 * Parse one conversion at f (after '%'); returns the character after it.
 * As illumos dt_printf_create: flags, digits, '*', '.' and length letters
 * come in any order, and its messages, which carry no tag (it reports them
 * with yywarn).  A width or precision above INT_MAX overflows its int (C
 * leaves that undefined; printf cannot take it): refused here.
 */
static const char *parse_conv(dt_pcb_t *pcb, const char *fn, dt_node_t *fmt, int nconv,
			      const char *f, fmt_conv_t *c)
{
	int dot = 0, digits = 0, n = 0;
	bool dynw = false, dynp = false;

	(void)fn;
	memset(c, 0, sizeof(*c));
	for (;; f++) {
		if (isdigit((unsigned char)*f)) {
			uint64_t v = 0;

			if (!dot && !digits && *f == '0')
				continue;
			for (; isdigit((unsigned char)*f); f++)
				if ((v = v * 10 + (uint64_t)(*f - '0')) > INT_MAX)
					dt_cerror(pcb, &fmt->dn_loc, "",
						  "format conversion #%d has a %s larger than %d",
						  nconv, dot ? "precision" : "width", INT_MAX);
			f--;
			digits++;
			continue;
		}
		switch (*f) {
		case '#':
		case '+':
		case '-':
		case ' ':
		case '\'':
		case '?': continue;
		case '@': c->agg = true; continue;
		case '*':
			if (dot ? dynp : dynw) /* sic: illumos says "precision" for both */
				dt_cerror(pcb, &fmt->dn_loc, "",
					  "format conversion #%d has more than one '*' specified "
					  "for the output precision",
					  nconv);
			if (dot)
				dynp = c->dynp = true;
			else
				dynw = c->dynw = true;
			c->star++;
			continue;
		case '.':
			if (dot++ != 0)
				dt_cerror(pcb, &fmt->dn_loc, "",
					  "format conversion #%d has more than one '.' specified",
					  nconv);
			digits = 0;
			continue;
		case '$':
			dt_cerror(pcb, &fmt->dn_loc, "",
				  "format conversion #%d uses unsupported positional format (%%n$)",
				  nconv);
		case '%':
			dt_cerror(
			    pcb, &fmt->dn_loc, "",
			    "format conversion #%d cannot be combined with other format flags: "
			    "%%%%",
			    nconv);
		case '\0':
			dt_cerror(pcb, &fmt->dn_loc, "",
				  "format conversion #%d name expected before end of format string",
				  nconv);
		case 'h':
		case 'l':
		case 'L':
		case 'w':
			if (n < (int)sizeof(c->len) - 2)
				c->len[n++] = *f;
			continue;
		default: break;
		}
		break;
	}
	c->conv = *f;
	/*
	 * The length letters and the conversion name one entry of illumos
	 * _dtrace_conversions (dt_pfdict_lookup), or the format is refused
	 * with the name: "%z" is undefined: %z, and so are %hhd and %F.
	 */
	{
		static const char *const convs[] = {
			"a",   "A",   "c",   "C",  "d",	 "e",  "E",  "f",   "g",   "G",
			"hd",  "hi",  "ho",  "hu", "hx", "hX", "i",  "I",   "k",   "lc",
			"ld",  "li",  "lo",  "lu", "ls", "lx", "lX", "lld", "lli", "llo",
			"llu", "llx", "llX", "Le", "LE", "Lf", "Lg", "LG",  "o",   "p",
			"P",   "s",   "S",   "T",  "u",	 "wc", "ws", "x",   "X",   "Y",
		};
		char name[sizeof(c->len) + 1];
		bool found = false;

		snprintf(name, sizeof(name), "%s%c", c->len, c->conv);
		for (size_t i = 0; i < sizeof(convs) / sizeof(convs[0]) && !found; i++)
			found = strcmp(convs[i], name) == 0;
		if (!found)
			dt_cerror(pcb, &fmt->dn_loc, "", "format conversion #%d is undefined: %%%s",
				  nconv, name);
	}
	return f + 1;
}

/*
 * printf, printa, system, freopen: check the format against the values
 * (printf) or against the keys and values of the aggregations (printa:
 * %@ is the aggregation's value, the other conversions its keys in order).
 */
static void check_format(dt_pcb_t *pcb, const dt_builtin_t *b, dt_node_t *fmt, dt_node_t *args,
			 const dt_ident_t *agg)
{
	const char *fn = b->db_name, *f = fmt->dn_string;
	dt_node_t *a = args;
	int argn = 2, nconv = 0, nkey = 0;
	bool printa = agg != NULL;

	if (fmt->dn_strlen == 0 && !printa && b->db_id != DT_B_FREOPEN)
		dt_cerror(pcb, &fmt->dn_loc, "D_PRINTF_FMT_EMPTY", "%s( ) format string is empty",
			  fn);
	while (*f) {
		const char *vt;
		fmt_conv_t c;

		if (*f++ != '%')
			continue;
		if (*f == '%') {
			f++;
			continue;
		}
		f = parse_conv(pcb, fn, fmt, ++nconv, f, &c);
		if (c.agg) {
			if (!printa)
				dt_cerror(
				    pcb, &fmt->dn_loc, "D_PRINTF_AGG_CONV",
				    "%%@ conversion requires an aggregation and is not for use "
				    "with %s( )",
				    fn);
			/* the value: count()'s a uint64_t, the others' an int64_t */
			vt = agg->di_func->db_id == DT_B_COUNT ? "uint64_t" : "int64_t";
			if (!conv_ok(pcb, c.conv, c.len, type_named(pcb, vt), NULL))
				dt_cerror(
				    pcb, &fmt->dn_loc, "D_PRINTF_ARG_TYPE",
				    "%s( ) aggregating action is incompatible with conversion "
				    "#%d prototype:\n\tconversion: %%%s%c\n\t prototype: %s\n\t  "
				    "argument: %s",
				    fn, nconv, c.len, c.conv, conv_proto(c.conv, c.len), vt);
			continue;
		}
		if (printa) {
			const dt_type_t *kt;

			/* illumos numbers the keys as arguments after the aggregation (foff 1) */
			if (nkey >= agg->di_nkeys)
				dt_cerror(
				    pcb, &fmt->dn_loc, "D_PRINTF_ARG_PROTO",
				    "printa( ) prototype mismatch: conversion #%d (%%%s%c) is "
				    "missing a corresponding value argument",
				    nconv, c.len, c.conv);
			kt = agg->di_keys[nkey++];
			if (!conv_ok(pcb, c.conv, c.len, kt, NULL))
				dt_cerror(
				    pcb, &fmt->dn_loc, "D_PRINTF_ARG_TYPE",
				    "printa( ) argument #%d is incompatible with conversion "
				    "#%d prototype:\n\tconversion: %%%s%c\n\t prototype: %s\n\t  "
				    "argument: %s",
				    nkey + 1, nconv, c.len, c.conv, conv_proto(c.conv, c.len),
				    tname(pcb, kt));
			continue;
		}
		for (int k = 0; k < c.star; k++, argn++) {
			/* the width's argument first, as C and dt_printf_validate take them */
			if (a == NULL)
				dt_cerror(pcb, &fmt->dn_loc, "D_PRINTF_DYN_PROTO",
					  "%s( ) prototype mismatch: conversion #%d (%%%s%c) is "
					  "missing a corresponding \"%s\" argument",
					  fn, nconv, c.len, c.conv, k == 0 && c.dynw ? "*" : ".*");
			if (!dt_type_is_int(a->dn_type))
				dt_cerror(
				    pcb, &a->dn_loc, "D_PRINTF_DYN_TYPE",
				    "%s( ) argument #%d is incompatible with conversion #%d "
				    "prototype:\n\tconversion: %% %s %s%c\n\t prototype: int\n\t  "
				    "argument: %s",
				    fn, argn, nconv, k == 0 && c.dynw ? "*" : ".*", c.len, c.conv,
				    tname(pcb, a->dn_type));
			a = a->dn_next;
		}
		if (a == NULL)
			dt_cerror(pcb, &fmt->dn_loc, "D_PRINTF_ARG_PROTO",
				  "%s( ) prototype mismatch: conversion #%d (%%%s%c) is missing a "
				  "corresponding value argument",
				  fn, nconv, c.len, c.conv);
		if (!conv_ok(pcb, c.conv, c.len, a->dn_type, a))
			dt_cerror(
			    pcb, &a->dn_loc, "D_PRINTF_ARG_TYPE",
			    "%s( ) argument #%d is incompatible with conversion #%d prototype:\n"
			    "\tconversion: %%%s%c\n\t prototype: %s\n\t  argument: %s",
			    fn, argn, nconv, c.len, c.conv, conv_proto(c.conv, c.len),
			    tname(pcb, a->dn_type));
		a = a->dn_next;
		argn++;
	}
	if (a != NULL && !printa)
		dt_cerror(pcb, &a->dn_loc, "D_PRINTF_ARG_EXTRA",
			  "%s( ) prototype mismatch: only %d arguments required by this format "
			  "string",
			  fn, argn - 2);
}

/* ---------------------------------------------------------------- calls */

static bool arg_ok(char k, const dt_node_t *a)
{
	switch (k) {
	case 'i':
	case 'c': return dt_type_is_int(a->dn_type);
	case 's':
		/* a string, a char pointer or array, or NULL (strtok(NULL, ...)) */
		return stringish(a->dn_type) || (dt_type_is_int(a->dn_type) &&
						 (a->dn_flags & DT_NF_CONST) && a->dn_value == 0);
	case 'p': return dt_type_is_scalar(a->dn_type);
	case 'a':
		return dt_type_is_scalar(a->dn_type) || dt_type_is_string(a->dn_type) ||
		       dt_type_resolve(a->dn_type)->dtt_kind == DT_TK_FLOAT ||
		       (a->dn_ident != NULL && a->dn_ident->di_kind == DT_IDENT_FUNC);
	case 'x': return !dt_type_is_void(a->dn_type);
	default: return true;
	}
}

/*
 * DTrace's ordering rules for speculations, clause by clause: speculate()
 * comes before any data is recorded, commit() after none, and nothing but
 * commit() and discard() may follow commit() (dt_stmt_append).  Data
 * recorded after speculate() goes to the speculation and does not count.
 */
static void record_action(dt_pcb_t *pcb, dt_cctx_t *cx, const dt_builtin_t *b, const dt_loc_t *loc)
{
	if (b->db_flags & DB_F_SPECULATE) {
		if (cx->cc_spec)
			dt_cerror(pcb, loc, "D_SPEC_SPEC",
				  "speculate( ) may not follow speculate( )");
		if (cx->cc_commit)
			dt_cerror(pcb, loc, "D_SPEC_COMM", "speculate( ) may not follow commit( )");
		if (cx->cc_data)
			dt_cerror(pcb, loc, "D_SPEC_DREC",
				  "speculate( ) may not follow data-recording action(s)");
		cx->cc_spec = true;
	} else if (b->db_flags & DB_F_COMMIT) {
		if (cx->cc_commit)
			dt_cerror(pcb, loc, "D_COMM_COMM", "commit( ) may not follow commit( )");
		if (cx->cc_data)
			dt_cerror(pcb, loc, "D_COMM_DREC",
				  "commit( ) may not follow data-recording action(s)");
		cx->cc_commit = true;
	} else if ((b->db_flags & DB_F_DISCARD) || b->db_id == DT_B_COPYOUT ||
		   b->db_id == DT_B_COPYOUTSTR) {
		/*
		 * neither data nor a commit; copyout( ) and copyoutstr( ) are
		 * illumos subroutines, void expressions its rules skip
		 */
	} else if (b->db_flags & DB_F_DESTRUCTIVE) {
		if (cx->cc_spec)
			dt_cerror(pcb, loc, "D_ACT_SPEC",
				  "destructive actions may not follow speculate( )");
	} else {
		if ((b->db_flags & DB_F_EXIT) && cx->cc_spec)
			dt_cerror(pcb, loc, "D_EXIT_SPEC", "exit( ) may not follow speculate( )");
		if (cx->cc_commit)
			dt_cerror(pcb, loc, "D_DREC_COMM",
				  "data-recording actions may not follow commit( )");
		if (!cx->cc_spec)
			cx->cc_data = true;
	}
}

static const char *kind_name(char k)
{
	switch (k) {
	case 'i':
	case 'c': return "an integer";
	case 's': return "a string";
	case 'p': return "a pointer or integer";
	case 'g': return "an aggregation";
	default: return "a value";
	}
}

/*
 * The tags DTrace gives the aggregation actions' errors: prototype,
 * non-aggregation argument, undefined aggregation, non-scalar argument.
 */
static const char *agg_tag(const dt_builtin_t *b, int which)
{
	static const char *const clear[] = { "D_CLEAR_PROTO", "D_CLEAR_AGGARG", "D_CLEAR_AGGBAD",
					     "D_PROTO_ARG" };
	static const char *const trunc[] = { "D_TRUNC_PROTO", "D_TRUNC_AGGARG", "D_TRUNC_AGGBAD",
					     "D_TRUNC_SCALAR" };
	static const char *const norm[] = { "D_NORMALIZE_PROTO", "D_NORMALIZE_AGGARG",
					    "D_NORMALIZE_AGGBAD", "D_NORMALIZE_SCALAR" };
	static const char *const printa[] = { "D_PRINTA_PROTO", "D_PRINTA_AGGARG",
					      "D_PRINTA_AGGBAD", "D_PROTO_ARG" };

	switch (b->db_id) {
	case DT_B_TRUNC: return trunc[which];
	case DT_B_NORMALIZE:
	case DT_B_DENORMALIZE: return norm[which];
	case DT_B_PRINTA: return printa[which];
	default: return clear[which];
	}
}

/* An aggregation argument: it must be one, and defined already. */
static dt_ident_t *agg_arg(dt_pcb_t *pcb, const dt_builtin_t *b, dt_node_t *a, int i)
{
	const char *fn = b->db_name;

	if (a->dn_kind != DT_N_AGG)
		dt_cerror(pcb, &a->dn_loc, agg_tag(b, 1),
			  "%s( ) argument #%d is incompatible with prototype: an aggregation is "
			  "expected",
			  fn, i + 1);
	if ((a->dn_ident = dt_ident_lookup(pcb->pcb_aggs, a->dn_name)) == NULL)
		dt_cerror(pcb, &a->dn_loc, agg_tag(b, 2),
			  "undefined aggregation used as argument to %s( ): @%s", fn, a->dn_name);
	a->dn_type = type_named(pcb, "void");
	return a->dn_ident;
}

/* printa([format,] @a, ...): the aggregations agree on their keys. */
static void check_printa(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b)
{
	dt_node_t *fmt = n->dn_args->dn_kind == DT_N_STRING ? n->dn_args : NULL;
	dt_node_t *first = fmt != NULL ? fmt->dn_next : n->dn_args;
	dt_ident_t *a0 = NULL;
	int i = fmt != NULL;

	if (first == NULL)
		dt_cerror(pcb, &n->dn_loc, "D_PRINTA_PROTO",
			  "printa( ) prototype mismatch: an aggregation is expected after the "
			  "format");
	if (fmt != NULL)
		fmt->dn_type = type_named(pcb, "string");
	for (dt_node_t *a = first; a != NULL; a = a->dn_next, i++) {
		dt_ident_t *id = agg_arg(pcb, b, a, i);

		if (a0 == NULL) {
			a0 = id;
			continue;
		}
		if (id->di_nkeys != a0->di_nkeys)
			dt_cerror(pcb, &a->dn_loc, "D_PRINTA_AGGKEY",
				  "printa( ): @%s has %d key%s but @%s has %d", a->dn_name,
				  id->di_nkeys, id->di_nkeys == 1 ? "" : "s", a0->di_name,
				  a0->di_nkeys);
		for (int k = 0; k < id->di_nkeys; k++)
			if (!dt_type_compatible(id->di_keys[k], a0->di_keys[k]))
				dt_cerror(
				    pcb, &a->dn_loc, "D_PRINTA_AGGPROTO",
				    "printa( ): key #%d of @%s (%s) does not match @%s's (%s)",
				    k + 1, a->dn_name, tname(pcb, id->di_keys[k]), a0->di_name,
				    tname(pcb, a0->di_keys[k]));
	}
	if (fmt != NULL)
		check_format(pcb, b, fmt, NULL, a0);
}

/* clear, trunc, normalize, denormalize */
static void check_aggaction(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b, dt_cctx_t *cx)
{
	int na = count_list(n->dn_args);
	dt_cctx_t acx = *cx;

	/* DTrace's words: trunc(@) or trunc(@, n); the others take a fixed count */
	if (na < b->db_minargs || na > b->db_maxargs)
		proto_len(pcb, &n->dn_loc, agg_tag(b, 0), b->db_name, "( )", na,
			  b->db_maxargs == b->db_minargs ? ""
			  : na > b->db_maxargs		 ? "no more than "
							 : "at least ",
			  na > b->db_maxargs ? b->db_maxargs : b->db_minargs);
	agg_arg(pcb, b, n->dn_args, 0);
	if (n->dn_args->dn_next != NULL) {
		dt_node_t *a = n->dn_args->dn_next;

		acx.cc_stmt = acx.cc_lhs = false;
		check(pcb, a, &acx);
		if (!dt_type_is_int(a->dn_type))
			dt_cerror(pcb, &a->dn_loc, agg_tag(b, 3),
				  "%s( ) argument #2 must be of scalar type", b->db_name);
	}
}

/* A constant argument of stack(), ustack(), tracemem(): its value, checked. */
static int64_t positive_const(dt_pcb_t *pcb, dt_node_t *a, dt_cctx_t *cx, const char *tag,
			      const char *what, bool zero_ok)
{
	check(pcb, a, cx);
	if (!dt_type_is_int(a->dn_type) || !(a->dn_flags & DT_NF_CONST) ||
	    (int64_t)a->dn_value < (zero_ok ? 0 : 1))
		dt_cerror(pcb, &a->dn_loc, tag, "%s must be a %s integer constant", what,
			  zero_ok ? "non-negative" : "positive");
	return (int64_t)a->dn_value;
}

/* A name of the Guide that only kernel tracing gives meaning to. */
static _Noreturn void kernel_only(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b)
{
	if (b->db_kind == DB_VAR)
		dt_cerror(pcb, &n->dn_loc, "D_IDENT_UNDEF",
			  "%s is a kernel variable: kernel tracing is not available here",
			  b->db_name);
	dt_cerror(pcb, &n->dn_loc, "D_FUNC_UNDEF",
		  "%s( ) is a kernel subroutine: kernel tracing is not available here", b->db_name);
}

/* curpsinfo or curlwpsinfo: a pointer DTrace translates, whose members alone have values */
static bool xlated_ptr(const dt_node_t *n)
{
	return n->dn_kind == DT_N_IDENT && n->dn_ident != NULL && n->dn_ident->di_func != NULL &&
	       (n->dn_ident->di_func->db_flags & DB_F_XLPTR);
}

/* tracemem(address, size[, dynamic size]) */
static void check_tracemem(dt_pcb_t *pcb, dt_node_t *n, int na, dt_cctx_t *acx)
{
	if (na < 2)
		proto_len(pcb, &n->dn_loc, "D_PROTO_LEN", "tracemem", "( )", na, "", 2);
	if (na > 3)
		dt_cerror(pcb, &n->dn_loc, "D_TRACEMEM_ARGS",
			  "tracemem( ) prototype mismatch: expected at most 3 args");
	check(pcb, n->dn_args, acx);
	if (!dt_type_is_scalar(n->dn_args->dn_type))
		dt_cerror(pcb, &n->dn_args->dn_loc, "D_TRACEMEM_ADDR",
			  "tracemem( ) argument #1 is incompatible with prototype: a pointer "
			  "or integer address is expected");
	positive_const(pcb, n->dn_args->dn_next, acx, "D_TRACEMEM_SIZE", "tracemem( ) size", false);
	if (na == 3) {
		dt_node_t *d = n->dn_args->dn_next->dn_next;

		check(pcb, d, acx);
		if (!dt_type_is_int(d->dn_type))
			dt_cerror(pcb, &d->dn_loc, "D_TRACEMEM_DYNSIZE",
				  "tracemem( ) dynamic size must be an integer");
	}
}

static void check_proto(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b, int na, dt_cctx_t *acx);

/*
 * print(p): a pointer to something of a known, non-zero size, in the
 * words of Oracle's dtrace 2 (D_PROTO_ARG, D_PRINT_SIZE).
 */
static void check_print(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b, int na, dt_cctx_t *acx)
{
	const dt_type_t *t;

	check_proto(pcb, n, b, na, acx);
	t = dt_type_resolve(n->dn_args->dn_type);
	if (t == NULL || t->dtt_kind != DT_TK_PTR)
		dt_cerror(pcb, &n->dn_args->dn_loc, "D_PROTO_ARG",
			  "print( ) argument #1 is incompatible with prototype:\n"
			  "\tprototype: void *\n\t argument: %s",
			  tname(pcb, n->dn_args->dn_type));
	if (dt_type_size(t->dtt_ref) == 0)
		dt_cerror(pcb, &n->dn_args->dn_loc, "D_PRINT_SIZE",
			  "print( ) argument #1 reference has type '%s' with size 0; cannot "
			  "print( ) it.",
			  tname(pcb, t->dtt_ref));
}

/* stack([frames]); ustack() and jstack() also take a string size */
static void check_stack(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b, int na, dt_cctx_t *acx)
{
	bool user = b->db_id != DT_B_STACK;

	if (na > (user ? 2 : 1))
		dt_cerror(pcb, &n->dn_loc, user ? "D_USTACK_PROTO" : "D_STACK_PROTO",
			  "%s( ) prototype mismatch: too many arguments", b->db_name);
	if (na >= 1)
		positive_const(pcb, n->dn_args, acx, user ? "D_USTACK_FRAMES" : "D_STACK_SIZE",
			       user ? "the number of frames" : "the stack size", false);
	if (na == 2)
		positive_const(pcb, n->dn_args->dn_next, acx, "D_USTACK_STRSIZE", "the string size",
			       true);
}

/* Any other call: its arguments against the row's (db_minargs, db_maxargs, db_args). */
static void check_proto(dt_pcb_t *pcb, dt_node_t *n, const dt_builtin_t *b, int na, dt_cctx_t *acx)
{
	const char *fn = b->db_name;
	bool trace = b->db_id == DT_B_TRACE;
	int i = 0;

	/*
	 * DTrace's words: "N expected" for a fixed count and the fixed part of
	 * printf(@, ...); "at least" and "at most" around optional arguments.
	 */
	if (na < b->db_minargs || (b->db_maxargs >= 0 && na > b->db_maxargs)) {
		bool over = b->db_maxargs >= 0 && na > b->db_maxargs;
		bool range = b->db_maxargs > b->db_minargs;

		proto_len(pcb, &n->dn_loc, "D_PROTO_LEN", fn, "( )", na,
			  !range ? ""
			  : over ? "at most "
				 : "at least ",
			  over ? b->db_maxargs : b->db_minargs);
	}
	for (dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next, i++) {
		size_t nk = strlen(b->db_args);
		char k = i < (int)nk ? b->db_args[i] : 'x';

		if (i >= (int)nk && nk > 0 && b->db_args[nk - 1] == '*')
			k = b->db_args[nk - 2];
		if (k == '*')
			k = b->db_args[i - 1];
		if (k == 'f') {
			if (a->dn_kind != DT_N_STRING)
				dt_cerror(pcb, &a->dn_loc, "D_PRINTF_ARG_FMT",
					  "%s( ) argument #1 must be a string constant format", fn);
			a->dn_type = type_named(pcb, "string");
			continue;
		}
		if (a->dn_kind == DT_N_AGG)
			dt_cerror(pcb, &a->dn_loc, trace ? "D_TRACE_AGG" : "D_PROTO_ARG",
				  "%s( ) argument #%d may not be an aggregation", fn, i + 1);
		if (trace) {
			const dt_ident_t *f = called(pcb, a);

			if (f != NULL && f->di_func->db_kind == DB_AGGFUNC)
				dt_cerror(
				    pcb, &a->dn_loc, "D_TRACE_DYN",
				    "trace( ) argument has dynamic type: %s( ) is an aggregating "
				    "function",
				    a->dn_name);
		}
		check(pcb, a, acx);
		if (trace && dt_type_is_void(a->dn_type))
			dt_cerror(pcb, &a->dn_loc, "D_TRACE_VOID",
				  "trace( ) argument has void type");
		if (trace && (xlated_ptr(a) || (a->dn_kind == DT_N_XLATE &&
						dt_type_is_ptr(a->dn_type) && a->dn_name != NULL)))
			dt_cerror(pcb, &a->dn_loc, "D_TRACE_DYN",
				  "trace( ) may not be applied to a translated pointer: trace "
				  "%s->member",
				  a->dn_name);
		if (k == 'c' && !(a->dn_flags & DT_NF_CONST))
			dt_cerror(pcb, &a->dn_loc, "D_PROTO_ARG",
				  "%s( ) argument #%d must be an integer constant", fn, i + 1);
		if (!arg_ok(k, a))
			dt_cerror(pcb, &a->dn_loc, "D_PROTO_ARG",
				  "%s( ) argument #%d is incompatible with the prototype: %s "
				  "expected, %s given",
				  fn, i + 1, kind_name(k), tname(pcb, a->dn_type));
	}
	if (b->db_flags & DB_F_FORMAT)
		check_format(pcb, b, n->dn_args, n->dn_args->dn_next, NULL);
}

static void check_call(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_ident_t *id = dt_ident_lookup(pcb->pcb_globals, n->dn_name);
	int na = count_list(n->dn_args);
	const char *fn = n->dn_name;
	const dt_builtin_t *b;
	dt_cctx_t acx = *cx;

	if (id == NULL || id->di_kind != DT_IDENT_FUNC) {
		if (id != NULL)
			dt_cerror(pcb, &n->dn_loc, "D_FUNC_IDKIND",
				  "%s is not a function: it is a variable", fn);
		dt_cerror(pcb, &n->dn_loc, "D_FUNC_UNDEF", "%s( ) is not a D function", fn);
	}
	b = id->di_func;
	if (b->db_flags & DB_F_KERNEL)
		kernel_only(pcb, n, b);
	if (b->db_kind == DB_AGGFUNC)
		dt_cerror(pcb, &n->dn_loc, "D_AGG_FUNC",
			  "%s( ) may only be used to assign an aggregation: @name = %s(...)", fn,
			  fn);
	/*
	 * An action used as a value: illumos' dt_cg_node says so for every
	 * function that is not a subroutine, naming its kind (dt_idkind_name:
	 * an action is a "tracing function").  stack(), func() and friends
	 * record data: a statement or an aggregation key.
	 */
	if ((b->db_kind == DB_ACTION && !cx->cc_stmt) ||
	    ((b->db_flags & (DB_F_STACK | DB_F_SYMADDR)) && !cx->cc_stmt && !cx->cc_aggkey))
		dt_cerror(pcb, &n->dn_loc, "D_CG_EXPR",
			  "tracing function %s( ) may not be called from a D expression (D program "
			  "context required)",
			  fn);
	acx.cc_stmt = acx.cc_lhs = acx.cc_aggkey = false;
	switch (b->db_id) {
	case DT_B_PRINTA:
		if (na == 0)
			dt_cerror(pcb, &n->dn_loc, "D_PRINTA_PROTO",
				  "printa( ) prototype mismatch: an aggregation is expected");
		check_printa(pcb, n, b);
		break;
	case DT_B_CLEAR:
	case DT_B_TRUNC:
	case DT_B_NORMALIZE:
	case DT_B_DENORMALIZE: check_aggaction(pcb, n, b, cx); break;
	case DT_B_TRACEMEM: check_tracemem(pcb, n, na, &acx); break;
	case DT_B_PRINT: check_print(pcb, n, b, na, &acx); break;
	case DT_B_STACK:
	case DT_B_USTACK:
	case DT_B_JSTACK: check_stack(pcb, n, b, na, &acx); break;
	default: check_proto(pcb, n, b, na, &acx); break;
	}
	if (b->db_kind == DB_ACTION || (cx->cc_stmt && (b->db_flags & (DB_F_STACK | DB_F_SYMADDR))))
		record_action(pcb, cx, b, &n->dn_loc);
	/*
	 * a stack is the type "stack" (an unsigned long, as it is recorded
	 * here), so that printa's formats tell it from integers
	 */
	n->dn_type = type_named(pcb, b->db_type != NULL ? b->db_type : "uint64_t");
	n->dn_ident = id;
}

/* ---------------------------------------------------------------- operators */

/* A variable first seen by ++ or --: it is an int64_t. */
static void implicit_int64(dt_pcb_t *pcb, dt_node_t *o)
{
	if (o->dn_type == NULL && o->dn_ident != NULL) {
		o->dn_ident->di_type = type_named(pcb, "int64_t");
		o->dn_ident->di_flags |= DT_IDF_ASSIGNED;
		o->dn_type = o->dn_ident->di_type;
	}
}

/* The integer constant 0 where a pointer is wanted (C's null pointer constant). */
static bool null_ptr(const dt_type_t *want, const dt_node_t *v)
{
	return dt_type_is_ptr(want) && dt_type_is_int(v->dn_type) && (v->dn_flags & DT_NF_CONST) &&
	       v->dn_value == 0;
}

/*
 * A string and NULL (the integer constant 0): illumos' string is a char
 * array, which dt_node_is_ptrcompat() finds compatible with the constant
 * 0, so it may be compared with a string (DIF_OP_SCMP compares a NULL
 * string as "") and assigned to a string variable.
 */
static bool null_str(const dt_type_t *want, const dt_node_t *v)
{
	return dt_type_is_string(want) && dt_type_is_int(v->dn_type) &&
	       (v->dn_flags & DT_NF_CONST) && v->dn_value == 0;
}

static void need_lvalue(dt_pcb_t *pcb, dt_node_t *n, const char *op)
{
	if (!(n->dn_flags & DT_NF_LVALUE))
		dt_cerror(pcb, &n->dn_loc, "D_OP_LVAL",
			  "operator %s requires modifiable lvalue as an operand", op);
	if (!(n->dn_flags & DT_NF_WRITABLE))
		dt_cerror(pcb, &n->dn_loc, "D_OP_WRITE",
			  "operator %s can only be applied to a writable variable", op);
}

/* a op b, both already converted to the operation's type (uns: it is unsigned); the caller
 * truncates the result to the type of n. */
static int64_t fold(dt_pcb_t *pcb, dt_node_t *n, int64_t a, int64_t b, bool uns)
{
	switch (n->dn_op) {
	case T_PLUS: return (int64_t)((uint64_t)a + (uint64_t)b);
	case T_MINUS: return (int64_t)((uint64_t)a - (uint64_t)b);
	case T_STAR: return (int64_t)((uint64_t)a * (uint64_t)b);
	case T_SLASH:
	case T_PERCENT:
		if (b == 0)
			dt_cerror(pcb, &n->dn_loc, "D_DIV_ZERO",
				  "expression contains division by zero");
		if (uns)
			return n->dn_op == T_SLASH ? (int64_t)((uint64_t)a / (uint64_t)b)
						   : (int64_t)((uint64_t)a % (uint64_t)b);
		if (a == INT64_MIN && b == -1)
			return n->dn_op == T_SLASH ? a : 0;
		return n->dn_op == T_SLASH ? a / b : a % b;
	case T_SHL: return (int64_t)((uint64_t)a << (b & 63));
	case T_SHR: return uns ? (int64_t)((uint64_t)a >> (b & 63)) : a >> (b & 63);
	case T_AMP: return a & b;
	case T_BAR: return a | b;
	case T_XOR: return a ^ b;
	case T_LT: return uns ? (uint64_t)a < (uint64_t)b : a < b;
	case T_GT: return uns ? (uint64_t)a > (uint64_t)b : a > b;
	case T_LE: return uns ? (uint64_t)a <= (uint64_t)b : a <= b;
	case T_GE: return uns ? (uint64_t)a >= (uint64_t)b : a >= b;
	case T_EQEQ: return a == b;
	case T_NE: return a != b;
	case T_LAND: return a && b;
	case T_LOR: return a || b;
	case T_LXOR: return !a != !b;
	default: return 0;
	}
}

static void check_assign(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_node_t *l = n->dn_left, *r = n->dn_right;
	dt_cctx_t lcx = *cx, rcx = *cx;
	dt_ident_t *id;

	if (l->dn_kind == DT_N_INDEX && l->dn_left->dn_kind == DT_N_INDEX &&
	    l->dn_left->dn_left->dn_kind == DT_N_AGG)
		dt_cerror(pcb, &l->dn_loc, "D_AGG_MDIM",
			  "improper attempt to reference @%s as a multi-dimensional array",
			  l->dn_left->dn_left->dn_name);
	if (l->dn_kind == DT_N_AGG ||
	    (l->dn_kind == DT_N_INDEX && l->dn_left->dn_kind == DT_N_AGG)) {
		check_aggregation(pcb, n, cx);
		return;
	}
	rcx.cc_stmt = rcx.cc_lhs = false;
	check(pcb, r, &rcx);
	if (r->dn_kind == DT_N_AGG)
		dt_cerror(pcb, &r->dn_loc, "D_AGG_SCALAR", "an aggregation has no value to assign");
	if (dt_type_is_void(r->dn_type))
		dt_cerror(pcb, &r->dn_loc, "D_OP_VFPTR",
			  "operator %s cannot be applied to a void value", dt_tok_name(n->dn_op));
	lcx.cc_lhs = true;
	lcx.cc_stmt = false;
	check(pcb, l, &lcx);
	need_lvalue(pcb, l, dt_tok_name(n->dn_op));
	id = l->dn_ident;
	if (id != NULL && l->dn_type == NULL) {
		if (n->dn_op != T_ASSIGN)
			dt_cerror(pcb, &l->dn_loc, "D_VAR_UNDEF",
				  "%s has not yet been declared or assigned", id->di_name);
		/* a new variable: it takes the type of the value */
		if (dt_type_resolve(r->dn_type)->dtt_kind == DT_TK_ARRAY)
			dt_cerror(pcb, &n->dn_loc, "D_OP_ARRFUN",
				  "operator = may not be applied to operand of type \"%s\"",
				  tname(pcb, r->dn_type));
		id->di_type = stored_type(pcb, r);
		id->di_flags |= DT_IDF_ASSIGNED;
		l->dn_type = id->di_type;
	}
	if (n->dn_op == T_ASSIGN) {
		/* illumos dt_cook_op2: an array is not assigned whole (a string is) */
		if (dt_type_resolve(l->dn_type)->dtt_kind == DT_TK_ARRAY)
			dt_cerror(pcb, &n->dn_loc, "D_OP_ARRFUN",
				  "operator = may not be applied to operand of type \"%s\"",
				  tname(pcb, l->dn_type));
		if (!dt_type_compatible(l->dn_type, r->dn_type) && !null_ptr(l->dn_type, r) &&
		    !null_str(l->dn_type, r))
			dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" = \"%s\"",
				  tname(pcb, l->dn_type), tname(pcb, r->dn_type));
	} else {
		dt_tok_t op = n->dn_op;
		bool addsub = op == T_ADD_EQ || op == T_SUB_EQ;

		if (dt_type_is_string(l->dn_type) || dt_type_is_string(r->dn_type))
			dt_cerror(pcb, &n->dn_loc,
				  addsub ? "D_OP_INCOMPAT"
				  : op == T_MUL_EQ || op == T_DIV_EQ || op == T_MOD_EQ
				      ? "D_OP_ARITH"
				      : "D_OP_INT",
				  "operator %s cannot be applied to a string", dt_tok_name(op));
		if (addsub && dt_type_is_ptr(r->dn_type))
			dt_cerror(pcb, &n->dn_loc, "D_OP_VFPTR",
				  "operator %s requires an integer right operand", dt_tok_name(op));
		if (op == T_MUL_EQ || op == T_DIV_EQ || op == T_MOD_EQ) {
			if (!dt_type_is_int(l->dn_type) || !dt_type_is_int(r->dn_type))
				dt_cerror(pcb, &n->dn_loc, "D_OP_ARITH",
					  "operator %s requires operands of arithmetic type",
					  dt_tok_name(op));
		} else if (!(dt_type_is_int(l->dn_type) ||
			     (addsub && dt_type_is_ptr(l->dn_type))) ||
			   !dt_type_is_int(r->dn_type)) {
			dt_cerror(pcb, &n->dn_loc, "D_OP_INT",
				  "operator %s requires operands of integral type",
				  dt_tok_name(op));
		}
		if ((op == T_DIV_EQ || op == T_MOD_EQ) && (r->dn_flags & DT_NF_CONST) &&
		    r->dn_value == 0)
			dt_cerror(pcb, &n->dn_loc, "D_DIV_ZERO",
				  "expression contains division by zero");
	}
	n->dn_type = l->dn_type;
	n->dn_flags = 0;
}

/* Is l (a left operand below n) a link of n's chain: a || b || c ..., or a, b, c ...? */
static bool chain_link(const dt_node_t *n, const dt_node_t *l)
{
	return l->dn_kind == DT_N_BINARY && !dt_tok_is_assign(l->dn_op) &&
	       (l->dn_op == T_COMMA) == (n->dn_op == T_COMMA);
}

static void check_binary(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx, bool ldone);

/*
 * A chain of binary operators as long as a generated predicate makes it
 * (the parser bounds only its nesting, see dt_pexpr.c) is checked from the
 * bottom up in a loop: recursing along its left operands would exhaust the
 * stack.  The links below n get the context check_binary() gives a left
 * operand.
 */
static void check_chain(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_cctx_t sub = *cx;
	dt_node_t **links;
	size_t len = 0, i = 0;

	if (n->dn_op != T_COMMA || !cx->cc_stmt)
		sub.cc_stmt = sub.cc_lhs = false;
	for (const dt_node_t *l = n->dn_left; chain_link(n, l); l = l->dn_left)
		len++;
	links = dt_palloc(pcb, len * sizeof(*links));
	for (dt_node_t *l = n->dn_left; i < len; l = l->dn_left)
		links[i++] = l;
	check_binary(pcb, links[len - 1], &sub, false); /* its left operand is no link */
	for (i = len - 1; i-- > 0;)
		check_binary(pcb, links[i], &sub, true);
	check_binary(pcb, n, cx, true);
}

/* ldone: the left operand is checked already (by check_chain()). */
static void check_binary(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx, bool ldone)
{
	dt_node_t *l = n->dn_left, *r = n->dn_right;
	const char *op = dt_tok_name(n->dn_op);
	dt_cctx_t ocx = *cx;

	if (dt_tok_is_assign(n->dn_op)) {
		check_assign(pcb, n, cx);
		return;
	}
	if (!ldone && chain_link(n, l)) {
		check_chain(pcb, n, cx);
		return;
	}
	ocx.cc_stmt = ocx.cc_lhs = false;
	if (n->dn_op == T_COMMA) {
		/* the left operand for its effects, the value of the right */
		if (!ldone)
			check(pcb, l, cx->cc_stmt ? cx : &ocx);
		check(pcb, r, cx->cc_stmt ? cx : &ocx);
		n->dn_type = r->dn_type;
		n->dn_flags = r->dn_flags & DT_NF_CONST;
		n->dn_value = r->dn_value;
		return;
	}
	if (!ldone)
		check(pcb, l, &ocx);
	check(pcb, r, &ocx);
	if (l->dn_kind == DT_N_AGG || r->dn_kind == DT_N_AGG)
		dt_cerror(pcb, &n->dn_loc, "D_OP_ACT", "an aggregation may not be an operand of %s",
			  op);
	n->dn_flags = 0;
	switch (n->dn_op) {
	case T_STAR:
	case T_SLASH:
	case T_PERCENT:
	case T_SHL:
	case T_SHR:
	case T_AMP:
	case T_BAR:
	case T_XOR:
		if (!dt_type_is_int(l->dn_type) || !dt_type_is_int(r->dn_type))
			dt_cerror(
			    pcb, &n->dn_loc,
			    n->dn_op == T_STAR || n->dn_op == T_SLASH ? "D_OP_ARITH" : "D_OP_INT",
			    "operator %s requires operands of %s type", op,
			    n->dn_op == T_STAR || n->dn_op == T_SLASH ? "arithmetic" : "integral");
		n->dn_type = n->dn_op == T_SHL || n->dn_op == T_SHR
				 ? promote(pcb, l->dn_type)
				 : arith_type(pcb, l->dn_type, r->dn_type);
		break;
	case T_PLUS:
	case T_MINUS:
		if (dt_type_is_int(l->dn_type) && dt_type_is_int(r->dn_type)) {
			n->dn_type = arith_type(pcb, l->dn_type, r->dn_type);
		} else if (dt_type_is_ptr(l->dn_type) && dt_type_is_int(r->dn_type)) {
			const dt_type_t *p = dt_type_resolve(l->dn_type);

			if (dt_type_is_void(p->dtt_ref))
				dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
					  "operator %s cannot be applied to a pointer to void", op);
			if (dt_type_size(p->dtt_ref) == 0)
				dt_cerror(
				    pcb, &n->dn_loc, "D_OP_INCOMPLETE",
				    "operator %s cannot be applied to a pointer to an incomplete "
				    "type",
				    op);
			n->dn_type = p->dtt_kind == DT_TK_ARRAY
					 ? dt_type_pointer(pcb->pcb_types, p->dtt_ref)
					 : l->dn_type;
		} else if (n->dn_op == T_PLUS && dt_type_is_int(l->dn_type) &&
			   dt_type_is_ptr(r->dn_type)) {
			n->dn_type = r->dn_type;
		} else if (n->dn_op == T_MINUS && dt_type_is_ptr(l->dn_type) &&
			   dt_type_is_ptr(r->dn_type) &&
			   dt_type_compatible(l->dn_type, r->dn_type)) {
			n->dn_type = type_named(pcb, "long");
		} else {
			dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  tname(pcb, l->dn_type), op, tname(pcb, r->dn_type));
		}
		break;
	case T_LT:
	case T_GT:
	case T_LE:
	case T_GE:
	case T_EQEQ:
	case T_NE: {
		bool ls = dt_type_is_string(l->dn_type), rs = dt_type_is_string(r->dn_type);

		if (ls || rs) {
			/* string comparison: strings, a string and a char pointer or NULL */
			if (!dt_type_compatible(l->dn_type, r->dn_type) &&
			    !null_str(l->dn_type, r) && !null_str(r->dn_type, l))
				dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
					  "operands have incompatible types: \"%s\" %s \"%s\"",
					  tname(pcb, l->dn_type), op, tname(pcb, r->dn_type));
		} else if ((dt_type_is_sou(l->dn_type) || dt_type_is_sou(r->dn_type)) &&
			   dt_type_compatible(l->dn_type, r->dn_type)) {
			/* illumos dt_cook_op2: operands of one type (ctf_type_compat)
			 * compare, a struct or union by where it is (DIF_OP_CMP of the
			 * references dt_cg_compare_op holds), as an array does */
		} else if (!dt_type_is_scalar(l->dn_type) || !dt_type_is_scalar(r->dn_type)) {
			dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  tname(pcb, l->dn_type), op, tname(pcb, r->dn_type));
		} else if (dt_type_is_ptr(l->dn_type) != dt_type_is_ptr(r->dn_type) &&
			   !null_ptr(l->dn_type, r) && !null_ptr(r->dn_type, l)) {
			/* a pointer compares with a pointer, or with 0 */
			dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  tname(pcb, l->dn_type), op, tname(pcb, r->dn_type));
		} else if (dt_type_is_ptr(l->dn_type) && dt_type_is_ptr(r->dn_type) &&
			   !dt_type_compatible(l->dn_type, r->dn_type)) {
			dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  tname(pcb, l->dn_type), op, tname(pcb, r->dn_type));
		}
		n->dn_type = type_named(pcb, "int");
		break;
	}
	default: /* && || ^^ */
		if (!dt_type_is_scalar(l->dn_type) || !dt_type_is_scalar(r->dn_type))
			dt_cerror(pcb, &n->dn_loc, "D_OP_SCALAR",
				  "operator %s requires operands of scalar type", op);
		n->dn_type = type_named(pcb, "int");
		break;
	}
	if ((l->dn_flags & DT_NF_CONST) && (r->dn_flags & DT_NF_CONST) &&
	    dt_type_is_int(l->dn_type) && dt_type_is_int(r->dn_type)) {
		/*
		 * As DIF computes, and illumos' dt_node_op2 folds: on the 64-bit
		 * values, the type (C's usual arithmetic conversions; for a
		 * shift the left operand's) choosing only signed or unsigned
		 * division, shift and comparison.  The result keeps its 64 bits
		 * until it is stored, cast or recorded: (0x7fffffff + 1) / 2 is
		 * 1073741824, and -1 == 0xffffffff is false (0xffffffffffffffff
		 * against 0xffffffff).  A shift count is taken mod 64, as C's
		 * shift of a register on x86-64 (illumos' folding and its DIF
		 * emulator) and BPF's do.
		 */
		bool shift = n->dn_op == T_SHL || n->dn_op == T_SHR;
		const dt_type_t *lt =
		    shift ? promote(pcb, l->dn_type) : arith_type(pcb, l->dn_type, r->dn_type);
		int64_t v = fold(pcb, n, (int64_t)l->dn_value, (int64_t)r->dn_value,
				 !dt_type_is_signed(lt));

		const_int(n, v, n->dn_type);
	} else if ((n->dn_op == T_SLASH || n->dn_op == T_PERCENT) && (r->dn_flags & DT_NF_CONST) &&
		   r->dn_value == 0) {
		dt_cerror(pcb, &n->dn_loc, "D_DIV_ZERO", "expression contains division by zero");
	}
}

static void check_unary(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_node_t *o = n->dn_left;
	const char *op = dt_tok_name(n->dn_op);
	dt_cctx_t ocx = *cx;
	const dt_type_t *r;

	ocx.cc_stmt = false;
	/* ++x, --x, x++ and x-- declare an unknown x as an int64_t (the Guide) */
	ocx.cc_lhs = n->dn_op == T_INC || n->dn_op == T_DEC;
	check(pcb, o, &ocx);
	implicit_int64(pcb, o);
	r = dt_type_resolve(o->dn_type);
	n->dn_flags = 0;
	switch (n->dn_op) {
	case T_INC:
	case T_DEC:
		need_lvalue(pcb, o, op);
		if (!dt_type_is_scalar(o->dn_type))
			dt_cerror(pcb, &n->dn_loc, "D_OP_SCALAR",
				  "operator %s requires an operand of scalar type", op);
		n->dn_type = o->dn_type;
		return;
	case T_PLUS:
	case T_MINUS:
	case T_TILDE:
		if (!dt_type_is_int(o->dn_type))
			dt_cerror(pcb, &n->dn_loc, n->dn_op == T_TILDE ? "D_OP_INT" : "D_OP_ARITH",
				  "operator %s requires an operand of %s type", op,
				  n->dn_op == T_TILDE ? "integral" : "arithmetic");
		n->dn_type = promote(pcb, o->dn_type);
		if (o->dn_flags & DT_NF_CONST) {
			int64_t v = (int64_t)o->dn_value;

			v = n->dn_op == T_MINUS	  ? (int64_t)(0 - (uint64_t)v)
			    : n->dn_op == T_TILDE ? ~v
						  : v;
			/*
			 * 64 bits, as DIF computes; an unsigned result is cut to its
			 * type's size, as illumos' dt_node_op1 does for a negation
			 * (-1u is 4294967295, and ~0u too).
			 */
			if (!dt_type_is_signed(n->dn_type))
				v = truncate_to(n->dn_type, v);
			const_int(n, v, n->dn_type);
		}
		return;
	case T_BANG:
		if (!dt_type_is_scalar(o->dn_type))
			dt_cerror(pcb, &n->dn_loc, "D_OP_SCALAR",
				  "operator ! requires an operand of scalar type");
		n->dn_type = type_named(pcb, "int");
		if (o->dn_flags & DT_NF_CONST)
			const_int(n, o->dn_value == 0, n->dn_type);
		return;
	case T_STAR:
		if (!dt_type_is_ptr(o->dn_type))
			dt_cerror(pcb, &n->dn_loc, "D_DEREF_NONPTR",
				  "cannot dereference non-pointer type (%s)",
				  tname(pcb, o->dn_type));
		if (dt_type_is_void(r->dtt_ref))
			dt_cerror(pcb, &n->dn_loc, "D_DEREF_VOID",
				  "cannot dereference pointer to void");
		if (dt_type_resolve(r->dtt_ref)->dtt_kind == DT_TK_FUNC)
			dt_cerror(pcb, &n->dn_loc, "D_DEREF_FUNC",
				  "cannot dereference pointer to function");
		n->dn_type = r->dtt_ref;
		/* a store through a pointer compiles; whether the memory may be written
		 * (alloca()'d scratch) is checked when the probe fires, as in DTrace */
		n->dn_flags = DT_NF_LVALUE | DT_NF_WRITABLE;
		return;
	default: /* T_AMP */
		if (o->dn_flags & DT_NF_BITFIELD)
			dt_cerror(pcb, &n->dn_loc, "D_ADDROF_BITFIELD",
				  "cannot take address of bit-field");
		if (o->dn_ident != NULL && (o->dn_ident->di_kind == DT_IDENT_SCALAR ||
					    o->dn_ident->di_kind == DT_IDENT_ARRAY ||
					    o->dn_ident->di_kind == DT_IDENT_BUILTIN))
			dt_cerror(pcb, &n->dn_loc, "D_ADDROF_VAR",
				  "cannot take address of dynamic variable");
		if (!(o->dn_flags & DT_NF_LVALUE))
			dt_cerror(pcb, &n->dn_loc, "D_ADDROF_LVAL",
				  "unary & requires an lvalue as its operand");
		n->dn_type = dt_type_pointer(pcb->pcb_types, o->dn_type);
		return;
	}
}

/* A struct or union member, through '.' or '->'. */
static void check_member(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_node_t *o = n->dn_left;
	const dt_type_t *t;
	const dt_member_t *m;
	dt_cctx_t ocx = *cx;

	if (o->dn_kind == DT_N_SELF || o->dn_kind == DT_N_THIS) {
		dt_ident_t *id = variable(pcb, n, o->dn_kind, n->dn_name, cx);

		n->dn_ident = id;
		n->dn_type = id->di_type;
		n->dn_flags = DT_NF_LVALUE | DT_NF_WRITABLE;
		if (id->di_kind == DT_IDENT_ARRAY && !cx->cc_index) {
			if (cx->cc_lhs)
				dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
					  "an associative array cannot be assigned as a whole");
			dt_cerror(pcb, &n->dn_loc, "D_IDENT_BADREF",
				  "array '%s%s' may not be referenced as scalar",
				  scope_prefix(o->dn_kind), n->dn_name);
		}
		if (n->dn_type == NULL && !cx->cc_lhs)
			dt_cerror(pcb, &n->dn_loc, "D_VAR_UNDEF",
				  "%s%s has not yet been declared or assigned",
				  scope_prefix(o->dn_kind), n->dn_name);
		return;
	}
	ocx.cc_stmt = ocx.cc_lhs = false;
	check(pcb, o, &ocx);
	t = dt_type_resolve(o->dn_type);
	if (n->dn_op == T_ARROW) {
		if (!dt_type_is_ptr(t))
			dt_cerror(pcb, &n->dn_loc, "D_OP_PTR",
				  "operator -> must be applied to a pointer, not %s",
				  tname(pcb, t));
		t = dt_type_resolve(t->dtt_ref);
	}
	if (!dt_type_is_sou(t))
		dt_cerror(
		    pcb, &n->dn_loc, "D_OP_SOU",
		    "operator %s cannot be applied to type \"%s\"; must be applied to a struct "
		    "or union",
		    dt_tok_name(n->dn_op == T_ARROW ? T_ARROW : T_DOT), tname(pcb, t));
	if (dt_type_size(t) == 0)
		dt_cerror(
		    pcb, &n->dn_loc, "D_OP_INCOMPLETE",
		    "operator %s cannot be applied to a forward declaration: no %s definition "
		    "is available",
		    dt_tok_name(n->dn_op == T_ARROW ? T_ARROW : T_DOT), tname(pcb, t));
	if ((m = dt_type_member(t, n->dn_name)) == NULL) {
		/* a library file written for other kernels: left out (dt_dlib.c) */
		if (dt_type_is_kernel(t) && dt_lib_of(pcb->pcb_hdl, n->dn_loc.file) != NULL)
			pcb->pcb_hdl->dt_libmiss = true;
		dt_cerror(pcb, &n->dn_loc, "D_TYPE_MEMBER", "%s is not a member of %s", n->dn_name,
			  tname(pcb, t));
	}
	if (o->dn_kind == DT_N_XLATE && o->dn_xlator != NULL) {
		bool defined = false;

		for (dt_node_t *xm = o->dn_xlator->dx_members; xm != NULL && !defined;
		     xm = xm->dn_next)
			defined = strcmp(xm->dn_name, n->dn_name) == 0;
		if (!defined)
			dt_cerror(pcb, &n->dn_loc, "D_XLATE_NOCONV",
				  "translator does not define conversion for member: %s",
				  n->dn_name);
	}
	n->dn_type = m->dm_type;
	/* a member is writable as what holds it is (through a pointer: see T_STAR) */
	n->dn_flags = DT_NF_LVALUE |
		      (n->dn_op == T_DOT ? (o->dn_flags & DT_NF_WRITABLE) : DT_NF_WRITABLE) |
		      (m->dm_bits != 0 ? DT_NF_BITFIELD : 0);
	if (xlated_ptr(o)) {
		/* read from the kernel when the probe fires: no storage to write;
		 * pr_fname and pr_psargs are strings, as the translators make them */
		n->dn_flags = 0;
		if (dt_type_resolve(m->dm_type)->dtt_kind == DT_TK_ARRAY)
			n->dn_type = type_named(pcb, "string");
	}
	if (o->dn_kind == DT_N_XLATE)
		n->dn_flags = 0; /* computed when the probe fires: nothing to assign */
	if (o->dn_kind == DT_N_XLATE && dt_type_resolve(m->dm_type)->dtt_kind == DT_TK_ARRAY &&
	    dt_type_is_int(dt_type_resolve(m->dm_type)->dtt_ref) &&
	    dt_type_size(dt_type_resolve(m->dm_type)->dtt_ref) == 1) {
		/* a translated char array (procfs.d's pr_fname) is the string it holds */
		n->dn_flags = 0;
		n->dn_type = type_named(pcb, "string");
	}
}

/* uregs[i]: a register of the thread, i a constant below DT_UREGS_MAX */
static void check_uregs(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_cctx_t icx = *cx;
	int na = count_list(n->dn_args);
	dt_node_t *a = n->dn_args;

	icx.cc_lhs = icx.cc_stmt = false;
	if (na != 1)
		proto_len(pcb, &n->dn_loc, "D_PROTO_LEN", "uregs", "[ ]", na, "", 1);
	check(pcb, a, &icx);
	if (!dt_type_is_int(a->dn_type) || !(a->dn_flags & DT_NF_CONST))
		dt_cerror(pcb, &a->dn_loc, "D_PROTO_ARG",
			  "uregs[ ] argument #1 is incompatible with the prototype: integer "
			  "constant expected, %s given",
			  (a->dn_flags & DT_NF_CONST) ? tname(pcb, a->dn_type)
						      : "a non-constant expression");
	if (dt_type_is_signed(a->dn_type) && (int64_t)a->dn_value < 0)
		dt_cerror(pcb, &a->dn_loc, "D_REGS_IDX",
			  "index %lld is out of range for array uregs",
			  (long long)(int64_t)a->dn_value);
	if (a->dn_value >= DT_UREGS_MAX)
		dt_cerror(pcb, &a->dn_loc, "D_REGS_IDX",
			  "index %llu is out of range for array uregs (0 to %d)",
			  (unsigned long long)a->dn_value, DT_UREGS_MAX - 1);
	n->dn_type = type_named(pcb, "uint64_t");
	n->dn_flags = 0;
}

static void check_index(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_node_t *o = n->dn_left;
	/* a name's identifier; self-> and this-> arrays are looked up below */
	dt_ident_t *id =
	    o->dn_kind == DT_N_IDENT ? dt_ident_lookup(pcb->pcb_globals, o->dn_name) : NULL;
	char what[80];

	if (o->dn_kind == DT_N_INDEX && o->dn_left->dn_kind == DT_N_AGG)
		dt_cerror(pcb, &n->dn_loc, "D_AGG_MDIM",
			  "improper attempt to reference @%s as a multi-dimensional array",
			  o->dn_left->dn_name);
	if (o->dn_kind == DT_N_AGG)
		dt_cerror(pcb, &n->dn_loc, "D_OP_DYN",
			  "@%s[ ] has a dynamic type: an aggregation has no value to read",
			  o->dn_name);
	/* the built-in arrays, whose names are not checked as scalars */
	if (id != NULL && id->di_kind == DT_IDENT_BUILTIN) {
		switch (id->di_func->db_id) {
		case DT_B_ARGS:
			o->dn_ident = id;
			if (cx->cc_lhs)
				dt_cerror(pcb, &n->dn_loc, "D_OP_WRITE",
					  "args[ ] may not be assigned");
			check_args(pcb, n, cx);
			return;
		case DT_B_UREGS:
			o->dn_ident = id;
			check_uregs(pcb, n, cx);
			return;
		default: break;
		}
	}
	/* associative arrays: global or self->; scalar arrays and pointers otherwise */
	if (o->dn_kind == DT_N_IDENT) {
		if (id == NULL || id->di_kind == DT_IDENT_ARRAY) {
			if (id == NULL) {
				if (!cx->cc_lhs)
					dt_cerror(pcb, &o->dn_loc, "D_VAR_UNDEF",
						  "%s has not yet been declared or assigned",
						  o->dn_name);
				id = dt_ident_add(pcb, pcb->pcb_globals, o->dn_name, DT_IDENT_ARRAY,
						  &o->dn_loc);
			}
			snprintf(what, sizeof(what), "%s[ ]", o->dn_name);
		} else {
			id = NULL;
		}
	} else if (o->dn_kind == DT_N_MEMBER &&
		   (o->dn_left->dn_kind == DT_N_SELF || o->dn_left->dn_kind == DT_N_THIS)) {
		dt_strset_t *ss = scope_table(pcb, o->dn_left->dn_kind);

		id = dt_ident_lookup(ss, o->dn_name);
		/* this->p[i] indexes a pointer or array; this-> associative arrays do not exist */
		if (o->dn_left->dn_kind == DT_N_THIS &&
		    (id == NULL || id->di_kind == DT_IDENT_ARRAY))
			dt_cerror(pcb, &n->dn_loc, "D_ARR_LOCAL",
				  "this->%s: clause-local associative arrays are not allowed",
				  o->dn_name);
		if (id == NULL) {
			if (!cx->cc_lhs)
				dt_cerror(pcb, &o->dn_loc, "D_VAR_UNDEF",
					  "self->%s has not yet been declared or assigned",
					  o->dn_name);
			id = dt_ident_add(pcb, ss, o->dn_name, DT_IDENT_ARRAY, &o->dn_loc);
		} else if (id->di_kind != DT_IDENT_ARRAY) {
			id = NULL;
		}
		snprintf(what, sizeof(what), "self->%s[ ]", o->dn_name);
	}
	if (id != NULL) {
		check_keys(pcb, n, id, what, cx);
		n->dn_ident = id;
		n->dn_type = id->di_type;
		n->dn_flags = DT_NF_LVALUE | DT_NF_WRITABLE;
		if (n->dn_type == NULL && !cx->cc_lhs)
			dt_cerror(pcb, &n->dn_loc, "D_VAR_UNDEF",
				  "%s has not yet been declared or assigned", what);
		return;
	}
	{
		dt_cctx_t ocx = *cx;
		const dt_type_t *t;

		ocx.cc_lhs = ocx.cc_stmt = false;
		check(pcb, o, &ocx);
		t = dt_type_resolve(o->dn_type);
		/*
		 * Any string may be indexed: illumos makes E1[E2] *((E1)+(E2))
		 * and dt_cook_op2 takes a string operand of + as a pointer.
		 */
		if (!dt_type_is_ptr(t) && !dt_type_is_string(t))
			dt_cerror(
			    pcb, &n->dn_loc, "D_ARR_BADREF",
			    "cannot index %s: it is not an array, pointer or associative array",
			    o->dn_kind == DT_N_IDENT ? o->dn_name : tname(pcb, t));
		if (count_list(n->dn_args) != 1)
			dt_cerror(pcb, &n->dn_loc, "D_ARR_BADREF",
				  "arrays and pointers take one index");
		check(pcb, n->dn_args, &ocx);
		if (!dt_type_is_int(n->dn_args->dn_type))
			dt_cerror(pcb, &n->dn_args->dn_loc, "D_OP_INT",
				  "an index must be of integral type");
		if (!dt_type_is_string(t) && dt_type_resolve(t->dtt_ref)->dtt_kind == DT_TK_FUNC)
			dt_cerror(pcb, &n->dn_loc, "D_DEREF_FUNC",
				  "cannot dereference pointer to function");
		/*
		 * A constant index outside a declared array (int a[5]; a[5]) compiles,
		 * as in illumos (Oracle's D refuses it, D_ARR_BOUNDS): in a variable it
		 * is a bad address fault when it runs, in memory it reads what is there.
		 */
		n->dn_type = dt_type_is_string(t) ? type_named(pcb, "char") : t->dtt_ref;
		/* an element of an array is writable as the array is; through a pointer, always */
		n->dn_flags =
		    DT_NF_LVALUE | (t->dtt_kind == DT_TK_ARRAY ? (o->dn_flags & DT_NF_WRITABLE)
				    : dt_type_is_string(t)     ? 0
							       : DT_NF_WRITABLE);
	}
}

static void check_ident(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_ident_t *id = dt_ident_lookup(pcb->pcb_globals, n->dn_name);

	if (id == NULL) {
		id = variable(pcb, n, DT_N_IDENT, n->dn_name, cx);
	}
	n->dn_ident = id;
	if (id->di_func != NULL && (id->di_func->db_flags & DB_F_KERNEL))
		kernel_only(pcb, n, id->di_func);
	switch (id->di_kind) {
	case DT_IDENT_ENUM:
		const_int(n, id->di_value, id->di_type);
		n->dn_flags = DT_NF_CONST;
		return;
	case DT_IDENT_INLINE: {
		dt_loc_t use = n->dn_loc;
		const char *name = n->dn_name;
		dt_node_t *next = n->dn_next; /* the arguments after it, in a list */

		*n = *id->di_inline; /* the inline's checked expression */
		n->dn_next = next;
		/* errors about it point where it is used (a library's inline too) */
		n->dn_loc = use;
		if (n->dn_kind == DT_N_XLATE && n->dn_name == NULL)
			n->dn_name = name; /* curpsinfo, for messages */
		return;
	}
	case DT_IDENT_BUILTIN:
		if (id->di_func->db_flags & (DB_F_ARGS | DB_F_REGS))
			dt_cerror(pcb, &n->dn_loc, "D_IDENT_BADREF",
				  "array '%s' may not be referenced as scalar", n->dn_name);
		if (id->di_func->db_id == DT_B_CURTHREAD && !dt_type_is_kernel(id->di_type)) {
			/*
			 * struct task_struct *, from BTF if it has it; looked up at
			 * the first use, so that a program without one never reads BTF
			 */
			dt_type_t *ts = dt_type_tag(pcb->pcb_types, DT_TK_STRUCT, "task_struct");

			if (ts == NULL)
				dt_cnomem(pcb);
			if (dt_type_kernel_tag(pcb->pcb_types, ts)) {
				dt_type_t *p = dt_type_pointer(pcb->pcb_types, ts);

				if (p == NULL)
					dt_cnomem(pcb);
				p->dtt_flags |= DT_TF_KERNEL;
				id->di_type = p;
			}
		}
		n->dn_type = id->di_type;
		n->dn_flags = DT_NF_LVALUE;
		return;
	case DT_IDENT_FUNC:
		dt_cerror(pcb, &n->dn_loc, "D_FUNC_IDKIND", "%s is a function: call it as %s( )",
			  n->dn_name, n->dn_name);
	case DT_IDENT_ARRAY:
		if (!cx->cc_lhs)
			dt_cerror(pcb, &n->dn_loc, "D_IDENT_BADREF",
				  "array '%s' may not be referenced as scalar", n->dn_name);
		dt_cerror(pcb, &n->dn_loc, "D_OP_INCOMPAT",
			  "an associative array cannot be assigned as a whole");
	default:
		n->dn_type = id->di_type;
		n->dn_flags = DT_NF_LVALUE | DT_NF_WRITABLE;
		if (n->dn_type == NULL && !cx->cc_lhs)
			dt_cerror(pcb, &n->dn_loc, "D_IDENT_UNDEF",
				  "failed to resolve %s: no value was ever assigned", n->dn_name);
	}
}

static void check(dt_pcb_t *pcb, dt_node_t *n, dt_cctx_t *cx)
{
	dt_cctx_t sub = *cx;

	sub.cc_stmt = sub.cc_lhs = false;
	switch (n->dn_kind) {
	case DT_N_INT: const_int(n, (int64_t)n->dn_value, int_const_type(pcb, n)); return;
	case DT_N_STRING:
		n->dn_type = type_named(pcb, "string");
		n->dn_flags = 0;
		return;
	case DT_N_IDENT: check_ident(pcb, n, cx); return;
	case DT_N_AGG:
		dt_cerror(pcb, &n->dn_loc, "D_AGG_SCALAR",
			  "@%s is an aggregation: it may only be assigned or passed to printa( ), "
			  "clear( ), trunc( ), normalize( ) or denormalize( )",
			  n->dn_name);
	case DT_N_SELF:
	case DT_N_THIS:
		dt_cerror(pcb, &n->dn_loc, "D_SYNTAX", "%s must be followed by ->",
			  n->dn_kind == DT_N_SELF ? "self" : "this");
	case DT_N_UNARY:
	case DT_N_POSTFIX: /* x++ and x-- check as ++x and --x */ check_unary(pcb, n, cx); return;
	case DT_N_BINARY: check_binary(pcb, n, cx, false); return;
	case DT_N_TERNARY: {
		dt_node_t *c = n->dn_cond, *l = n->dn_left, *r = n->dn_right;

		check(pcb, c, &sub);
		if (!dt_type_is_scalar(c->dn_type))
			dt_cerror(pcb, &c->dn_loc, "D_OP_SCALAR",
				  "operator ?: requires a condition of scalar type");
		for (dt_node_t *b = l; b != NULL; b = b == l ? r : NULL) {
			const dt_ident_t *f = called(pcb, b);

			if (f != NULL && (f->di_func->db_kind == DB_ACTION ||
					  (f->di_func->db_flags & (DB_F_STACK | DB_F_SYMADDR))))
				dt_cerror(pcb, &b->dn_loc, "D_OP_ACT",
					  "action cannot be used in a conditional context");
		}
		check(pcb, l, &sub);
		check(pcb, r, &sub);
		if (dt_type_is_int(l->dn_type) && dt_type_is_int(r->dn_type)) {
			n->dn_type = arith_type(pcb, l->dn_type, r->dn_type);
		} else if (dt_type_compatible(l->dn_type, r->dn_type)) {
			n->dn_type = dt_type_is_string(r->dn_type) ? r->dn_type : l->dn_type;
		} else if (null_ptr(l->dn_type, r) || null_ptr(r->dn_type, l)) {
			n->dn_type = dt_type_is_ptr(l->dn_type) ? l->dn_type : r->dn_type;
		} else if (null_str(l->dn_type, r) || null_str(r->dn_type, l)) {
			/* illumos dt_cook_op3: dt_node_is_ptrcompat() gives the string's type */
			n->dn_type = dt_type_is_string(l->dn_type) ? l->dn_type : r->dn_type;
		} else {
			dt_cerror(
			    pcb, &n->dn_loc, "D_OP_INCOMPAT",
			    "operator ?: operands must have compatible types: \"%s\" and \"%s\"",
			    tname(pcb, l->dn_type), tname(pcb, r->dn_type));
		}
		n->dn_flags = 0;
		if ((c->dn_flags & l->dn_flags & r->dn_flags & DT_NF_CONST) &&
		    dt_type_is_int(n->dn_type))
			const_int(n,
				  truncate_to(n->dn_type,
					      (int64_t)(c->dn_value ? l->dn_value : r->dn_value)),
				  n->dn_type);
		return;
	}
	case DT_N_CALL: check_call(pcb, n, cx); return;
	case DT_N_INDEX: check_index(pcb, n, cx); return;
	case DT_N_MEMBER: check_member(pcb, n, cx); return;
	case DT_N_CAST: {
		const dt_type_t *to = dt_type_resolve(n->dn_type), *from;

		check(pcb, n->dn_left, &sub);
		from = dt_type_resolve(n->dn_left->dn_type);
		/*
		 * C's scalar casts, plus (string) of a scalar, as stringof.  D
		 * has no floating-point arithmetic, so no conversion to or from
		 * float, double or long double (illumos: not dt_node_is_scalar)
		 * but to its own type.
		 */
		if (dt_type_is_sou(to) && dt_type_compatible(to, from)) {
			/* illumos dt_cook_op2: a cast to a compatible type (ctf_type_compat),
			 * as ((struct in) v).m in a translator */
		} else if (dt_type_is_sou(to) || dt_type_is_sou(from) ||
			   to->dtt_kind == DT_TK_ARRAY ||
			   ((to->dtt_kind == DT_TK_FLOAT || from->dtt_kind == DT_TK_FLOAT) &&
			    !(to->dtt_kind == from->dtt_kind && to->dtt_size == from->dtt_size)) ||
			   (dt_type_is_string(from) && !dt_type_is_string(to)) ||
			   (dt_type_is_string(to) && !dt_type_is_string(from) &&
			    !dt_type_is_scalar(from)))
			dt_cerror(pcb, &n->dn_loc, "D_CAST_INVAL",
				  "invalid cast expression: \"%s\" to \"%s\"",
				  tname(pcb, n->dn_left->dn_type), tname(pcb, n->dn_type));
		n->dn_flags = 0;
		if ((n->dn_left->dn_flags & DT_NF_CONST) && dt_type_is_int(to))
			const_int(n, truncate_to(to, (int64_t)n->dn_left->dn_value), n->dn_type);
		return;
	}
	case DT_N_SIZEOF: {
		size_t sz;

		if (n->dn_left != NULL) {
			check(pcb, n->dn_left, &sub);
			if (n->dn_left->dn_flags & DT_NF_BITFIELD)
				dt_cerror(pcb, &n->dn_loc, "D_SIZEOF_BITFIELD",
					  "cannot apply sizeof to a bit-field");
			n->dn_type = n->dn_left->dn_type;
		}
		sz = dt_type_is_string(n->dn_type) ? STRSIZE : dt_type_size(n->dn_type);
		if (sz == 0)
			dt_cerror(pcb, &n->dn_loc, "D_SIZEOF_TYPE",
				  "cannot apply sizeof to an incomplete or void type (%s)",
				  tname(pcb, n->dn_type));
		const_int(n, (int64_t)sz, type_named(pcb, "size_t"));
		return;
	}
	case DT_N_OFFSETOF: {
		const dt_member_t *m;

		if (!dt_type_is_sou(n->dn_type) || dt_type_size(n->dn_type) == 0)
			dt_cerror(
			    pcb, &n->dn_loc, "D_OFFSETOF_TYPE",
			    "offsetof operand must be a complete struct or union type, not %s",
			    tname(pcb, n->dn_type));
		if ((m = dt_type_member(n->dn_type, n->dn_name)) == NULL)
			dt_cerror(pcb, &n->dn_loc, "D_TYPE_MEMBER", "%s is not a member of %s",
				  n->dn_name, tname(pcb, n->dn_type));
		if (m->dm_bits != 0)
			dt_cerror(pcb, &n->dn_loc, "D_OFFSETOF_BITFIELD",
				  "cannot take offset of a bit-field: %s", n->dn_name);
		const_int(n, (int64_t)m->dm_off, type_named(pcb, "size_t"));
		return;
	}
	case DT_N_STRINGOF:
		check(pcb, n->dn_left, &sub);
		if (!dt_type_is_scalar(n->dn_left->dn_type) &&
		    !dt_type_is_string(n->dn_left->dn_type))
			dt_cerror(pcb, &n->dn_loc, "D_STRINGOF_TYPE",
				  "stringof operand must be of scalar or string type, not %s",
				  tname(pcb, n->dn_left->dn_type));
		n->dn_type = type_named(pcb, "string");
		n->dn_flags = 0;
		return;
	case DT_N_XLATE: {
		bool ptr = dt_type_is_ptr(n->dn_type);

		check(pcb, n->dn_left, &sub);
		if ((n->dn_xlator = dt_find_xlator(pcb, n->dn_left->dn_type, n->dn_type)) == NULL)
			dt_cerror(pcb, &n->dn_loc, "D_XLATE_NONE",
				  "translator does not exist: %s -> %s",
				  tname(pcb, n->dn_left->dn_type), tname(pcb, n->dn_type));
		n->dn_flags = ptr ? 0 : DT_NF_LVALUE;
		return;
	}
	case DT_N_SYM:
		dt_cerror(pcb, &n->dn_loc, "D_SYM_NOTYPES",
			  "no symbol table is available for `%s: kernel symbols cannot be traced "
			  "here",
			  n->dn_name);
	default:
		dt_cerror(pcb, &n->dn_loc, "D_UNKNOWN", "internal error: unexpected node %d",
			  (int)n->dn_kind);
	}
}

/* ---------------------------------------------------------------- declarations */

static void check_vardecl(dt_pcb_t *pcb, dt_node_t *d)
{
	dt_strset_t *ss = d->dn_op == T_SELF   ? pcb->pcb_selfs
			  : d->dn_op == T_THIS ? pcb->pcb_thiss
					       : pcb->pcb_globals;
	dt_ident_t *id = dt_ident_lookup(ss, d->dn_name);
	const char *pre = d->dn_op == T_SELF ? "self->" : d->dn_op == T_THIS ? "this->" : "";

	if (dt_type_is_void(d->dn_type))
		dt_cerror(pcb, &d->dn_loc, "D_DECL_VOIDOBJ", "cannot declare void object: %s%s",
			  pre, d->dn_name);
	if (dt_type_size(d->dn_type) == 0 && !dt_type_is_string(d->dn_type))
		dt_cerror(pcb, &d->dn_loc, "D_DECL_INCOMPLETE",
			  "variable %s%s has an incomplete type", pre, d->dn_name);
	if (id != NULL) {
		if (id->di_kind == DT_IDENT_BUILTIN || id->di_kind == DT_IDENT_FUNC ||
		    id->di_kind == DT_IDENT_ENUM || id->di_kind == DT_IDENT_INLINE)
			dt_cerror(pcb, &d->dn_loc, "D_DECL_IDRED",
				  "identifier redeclared: %s%s (a built-in, enumerator or inline)",
				  pre, d->dn_name);
		if (!dt_type_compatible(id->di_type, d->dn_type) ||
		    dt_type_size(id->di_type) != dt_type_size(d->dn_type) ||
		    dt_type_is_signed(id->di_type) != dt_type_is_signed(d->dn_type) ||
		    (d->dn_args != NULL) != (id->di_kind == DT_IDENT_ARRAY))
			dt_cerror(pcb, &d->dn_loc, "D_DECL_IDRED",
				  "identifier redeclared with another type: %s%s (line %u)", pre,
				  d->dn_name, id->di_loc.line);
		return;
	}
	if (d->dn_args != NULL && d->dn_op == T_THIS)
		dt_cerror(
		    pcb, &d->dn_loc, "D_DECL_LOCASSC",
		    "associative arrays may not be declared as clause-local variables: this->%s",
		    d->dn_name);
	id = dt_ident_add(pcb, ss, d->dn_name,
			  d->dn_args != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR, &d->dn_loc);
	id->di_type = d->dn_type;
	id->di_flags = DT_IDF_DECLARED | DT_IDF_ASSIGNED;
	if (d->dn_args != NULL) {
		int nk = 0;

		for (dt_node_t *k = d->dn_args; k != NULL; k = k->dn_next) {
			if (dt_type_is_void(k->dn_type))
				dt_cerror(pcb, &k->dn_loc, "D_KEY_TYPE",
					  "%s: key #%d has a type that cannot be a key", d->dn_name,
					  nk + 1);
			id->di_keys[nk++] = k->dn_type;
		}
		id->di_nkeys = nk;
	}
}

static void check_inline(dt_pcb_t *pcb, dt_node_t *d)
{
	dt_cctx_t cx = { 0 };
	dt_ident_t *id;

	cx.cc_nargs = -1;
	if (dt_type_is_void(d->dn_type))
		dt_cerror(pcb, &d->dn_loc, "D_DECL_VOIDOBJ", "cannot declare void inline: %s",
			  d->dn_name);
	if ((id = dt_ident_lookup(pcb->pcb_globals, d->dn_name)) != NULL &&
	    !(id->di_func != NULL && (id->di_func->db_flags & DB_F_KERNEL) &&
	      dt_lib_of(pcb->pcb_hdl, d->dn_loc.file) != NULL))
		/* but a library defines a kernel variable it can give (sched.d's curcpu) */
		dt_cerror(pcb, &d->dn_loc, "D_DECL_IDRED", "identifier redeclared: %s", d->dn_name);
	check(pcb, d->dn_left, &cx);
	if (!dt_type_compatible(d->dn_type, d->dn_left->dn_type))
		dt_cerror(pcb, &d->dn_loc, "D_OP_INCOMPAT",
			  "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
			  d->dn_name, tname(pcb, d->dn_type), tname(pcb, d->dn_left->dn_type));
	id = dt_ident_add(pcb, pcb->pcb_globals, d->dn_name, DT_IDENT_INLINE, &d->dn_loc);
	/* the inline's value takes the declared type */
	d->dn_left->dn_type = d->dn_type;
	if (d->dn_left->dn_flags & DT_NF_CONST)
		d->dn_left->dn_value =
		    (uint64_t)truncate_to(d->dn_type, (int64_t)d->dn_left->dn_value);
	d->dn_left->dn_flags &= ~(DT_NF_LVALUE | DT_NF_WRITABLE);
	id->di_inline = d->dn_left;
	id->di_type = d->dn_type;
	id->di_flags = DT_IDF_DECLARED | DT_IDF_ASSIGNED;
}

static void check_xlator(dt_pcb_t *pcb, dt_node_t *d)
{
	dt_xlator_t *x = d->dn_xlator;
	const dt_type_t *to = dt_type_resolve(x->dx_to);
	dt_cctx_t cx = { 0 };
	dt_ident_t *arg;

	cx.cc_nargs = -1;
	if (!dt_type_is_sou(to) || dt_type_size(to) == 0)
		dt_cerror(pcb, &x->dx_loc, "D_XLATE_SOU",
			  "translator output type must be a complete struct or union, not %s",
			  tname(pcb, x->dx_to));
	for (dt_xlator_t *o = pcb->pcb_xlators; o != NULL; o = o->dx_next)
		if (dt_type_compatible(o->dx_to, x->dx_to) &&
		    dt_type_compatible(o->dx_from, x->dx_from))
			dt_cerror(pcb, &x->dx_loc, "D_XLATE_REDECL",
				  "translator from %s to %s is already defined at line %u",
				  tname(pcb, x->dx_from), tname(pcb, x->dx_to), o->dx_loc.line);
	/* the input is visible by its name while the members are checked */
	arg = dt_ident_lookup(pcb->pcb_globals, x->dx_arg);
	if (arg != NULL)
		dt_cerror(pcb, &x->dx_loc, "D_DECL_IDRED",
			  "translator input %s hides an identifier of the same name", x->dx_arg);
	arg = dt_ident_add(pcb, pcb->pcb_globals, x->dx_arg, DT_IDENT_SCALAR, &x->dx_loc);
	arg->di_type = x->dx_from;
	arg->di_flags = DT_IDF_DECLARED | DT_IDF_ASSIGNED | DT_IDF_XLARG;
	x->dx_argid = arg;
	for (dt_node_t *m = x->dx_members; m != NULL; m = m->dn_next) {
		const dt_member_t *dm = dt_type_member(to, m->dn_name);

		if (dm == NULL)
			dt_cerror(pcb, &m->dn_loc, "D_XLATE_MEMB",
				  "translator member %s is not a member of %s", m->dn_name,
				  tname(pcb, x->dx_to));
		for (dt_node_t *o = x->dx_members; o != m; o = o->dn_next)
			if (strcmp(o->dn_name, m->dn_name) == 0)
				dt_cerror(pcb, &m->dn_loc, "D_XLATE_MEMB",
					  "translator member %s is defined twice", m->dn_name);
		check(pcb, m->dn_right, &cx);
		if (!dt_type_compatible(dm->dm_type, m->dn_right->dn_type))
			dt_cerror(
			    pcb, &m->dn_loc, "D_XLATE_INCOMPAT",
			    "translator member %s definition uses incompatible types: \"%s\" = "
			    "\"%s\"",
			    m->dn_name, tname(pcb, dm->dm_type), tname(pcb, m->dn_right->dn_type));
	}
	/* out of scope again */
	if (dt_strset_put(pcb->pcb_globals, x->dx_arg, NULL) != 0)
		dt_cnomem(pcb);
	x->dx_next = pcb->pcb_xlators;
	pcb->pcb_xlators = x;
}

/*
 * The probes a provider makes of a description when it compiles (pid, as
 * illumos' dt_setcontext): an offset not on an instruction, a function
 * the module lacks, are errors of the description, with the provider's tag.
 */
static void make_probes(dt_pcb_t *pcb, dt_node_t *pd)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;
	dtrace_probedesc_t desc;
	const char *tag;
	char msg[512];

	if (dtrace_str2desc(dtp, DTRACE_PROBESPEC_NONE, pd->dn_name, &desc) != 0)
		return; /* its fields: pdesc_args says what is wrong */
	if (dt_probe_compile(dtp, &desc, &tag) != 0) {
		/* the handle's message, copied: the error is written over it */
		snprintf(msg, sizeof(msg), "%s", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dt_cerror(pcb, &pd->dn_loc, tag, "%s", msg);
	}
}

/* Do two probe declarations give args[] the same types, native and translated? */
static bool same_args(const dt_probedecl_t *a, const dt_probedecl_t *b)
{
	if (a->pd_xargc != b->pd_xargc || a->pd_nargc != b->pd_nargc)
		return false;
	for (int i = 0; i < a->pd_xargc; i++)
		if (!dt_type_compatible(a->pd_xargs[i].pa_type, b->pd_xargs[i].pa_type) ||
		    dt_probe_argmap(a, i) != dt_probe_argmap(b, i))
			return false;
	for (int i = 0; i < a->pd_nargc; i++)
		if (!dt_type_compatible(a->pd_nargs[i].pa_type, b->pd_nargs[i].pa_type))
			return false;
	return true;
}

static void check_clause(dt_pcb_t *pcb, dt_node_t *c)
{
	const dt_probedecl_t *first = NULL;
	const char *firstname = NULL;
	bool usesargs = false;

	/* once per probe description, as DTrace compiles it */
	for (dt_node_t *pd = c->dn_pdescs; pd != NULL; pd = pd->dn_next) {
		dt_cctx_t cx = { 0 };
		bool used = false;

		cx.cc_clause = c;
		cx.cc_usesargs = &used;
		pdesc_args(pcb, pd, &cx);
		make_probes(pcb, pd);
		/*
		 * The clause's code is made once for all its descriptions, and
		 * args[] rewritten as the first one types it (xlate_arg): the
		 * others must type it the same.
		 */
		if (usesargs) {
			if (cx.cc_nargs == -1)
				table_args(pcb, &cx);
			if (cx.cc_probe == NULL || cx.cc_nargs < 0 ||
			    !same_args(first, cx.cc_probe))
				dt_cerror(pcb, &pd->dn_loc, "D_ARGS_MULTI",
					  "args[ ] is ambiguous: %s and %s have different argument "
					  "types, and a clause is compiled once for all its probes",
					  firstname, cx.cc_pname);
		}
		/*
		 * The actions first, then the predicate, as DTrace cooks a clause:
		 * "/x == 0/ { x = 1; }" declares x in its actions.
		 */
		for (dt_node_t *s = c->dn_args; s != NULL; s = s->dn_next) {
			cx.cc_stmt = true;
			cx.cc_lhs = false;
			check(pcb, s, &cx);
			/* a bare expression is evaluated for its effects: it records nothing */
			if (s->dn_kind != DT_N_CALL && dt_type_is_void(s->dn_type) &&
			    !(s->dn_kind == DT_N_BINARY))
				dt_cerror(pcb, &s->dn_loc, "D_TRACE_VOID",
					  "expression statement has void type");
		}
		if (c->dn_cond != NULL) {
			cx.cc_pred = true;
			cx.cc_stmt = false;
			check(pcb, c->dn_cond, &cx);
			if (!dt_type_is_scalar(c->dn_cond->dn_type))
				dt_cerror(pcb, &c->dn_cond->dn_loc, "D_PRED_SCALAR",
					  "predicate result must be of scalar type, not %s",
					  tname(pcb, c->dn_cond->dn_type));
			cx.cc_pred = false;
		}
		if (pd == c->dn_pdescs && used) {
			if (cx.cc_probe == NULL && cx.cc_nargs == -1)
				table_args(pcb, &cx); /* what check_args found, in its copy */
			usesargs = true;
			first = cx.cc_probe;
			firstname = cx.cc_pname;
		}
	}
}

/* Check a top-level node as soon as it is parsed: D is checked in program order. */
void dt_check_node(dt_pcb_t *pcb, dt_node_t *n)
{
	switch (n->dn_kind) {
	case DT_N_CLAUSE: check_clause(pcb, n); break;
	case DT_N_VARDECL: check_vardecl(pcb, n); break;
	case DT_N_INLINE: check_inline(pcb, n); break;
	case DT_N_XLATOR: check_xlator(pcb, n); break;
	default: break;
	}
}

void dt_check_program(dt_pcb_t *pcb)
{
	dt_loc_t top = { pcb->pcb_file, 1, 1, 0 };
	int last = pcb->pcb_argc - 1;

	bool clauses = false;

	for (dt_node_t *n = pcb->pcb_clauses; n != NULL && !clauses; n = n->dn_next)
		clauses = n->dn_kind == DT_N_CLAUSE;
	/* declarations alone make an empty program, as in DTrace; provider files do not */
	if (!clauses && pcb->pcb_prog->dp_providers == NULL && pcb->pcb_hdl->dt_libtry == NULL &&
	    !dt_option_isset(pcb->pcb_hdl, "empty"))
		dt_cerror(pcb, &top, "D_EMPTY", "empty D program translation unit");
	/* every macro argument given must be used, unless defaults are allowed */
	/* as DTrace: the last argument must be referenced (so are all before it, usually) */
	if (last >= 1 && !dt_option_isset(pcb->pcb_hdl, "defaultargs") &&
	    (last >= 64 || !(pcb->pcb_macros_used >> last)))
		dt_cerror(pcb, &top, "D_MACRO_UNUSED",
			  "extraneous argument '%s' ($%d is not referenced)", pcb->pcb_argv[last],
			  last);
}
