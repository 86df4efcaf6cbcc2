/*
 * dt_type.c -- D types: the C base types of the LP64 data model, D's
 * string, the typedefs D predefines, struct/union/enum tags and derived
 * pointer and array types.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dt_impl.h"
#include "ks.h"

#define NBUCKETS 64

typedef struct dt_tname {
	struct dt_tname *tn_next;
	const char *tn_name;
	dt_tkind_t tn_kind; /* DT_TK_TYPEDEF for typedefs, else the tag kind */
	dt_type_t *tn_type;
} dt_tname_t;

struct dt_typetab {
	dt_arena_t *tt_arena;
	dt_tname_t *tt_hash[NBUCKETS];
	dtrace_hdl_t *tt_hdl; /* kernel types come from its BTF; NULL: none */
};

static dt_type_t *import(dt_typetab_t *tt, uint32_t id, int depth);
static void complete(const dt_type_t *t);

static const struct {
	const char *name;
	dt_tkind_t kind;
	size_t size;
	int flags;
} base_types[] = {
	{ "void", DT_TK_VOID, 0, 0 },
	{ "char", DT_TK_INT, 1, DT_TF_SIGNED },
	{ "signed char", DT_TK_INT, 1, DT_TF_SIGNED },
	{ "unsigned char", DT_TK_INT, 1, 0 },
	{ "short", DT_TK_INT, 2, DT_TF_SIGNED },
	{ "unsigned short", DT_TK_INT, 2, 0 },
	{ "int", DT_TK_INT, 4, DT_TF_SIGNED },
	{ "unsigned int", DT_TK_INT, 4, 0 },
	{ "long", DT_TK_INT, 8, DT_TF_SIGNED },
	{ "unsigned long", DT_TK_INT, 8, 0 },
	{ "long long", DT_TK_INT, 8, DT_TF_SIGNED },
	{ "unsigned long long", DT_TK_INT, 8, 0 },
	{ "_Bool", DT_TK_INT, 1, 0 },
	{ "float", DT_TK_FLOAT, 4, DT_TF_SIGNED },
	{ "double", DT_TK_FLOAT, 8, DT_TF_SIGNED },
	{ "long double", DT_TK_FLOAT, 16, DT_TF_SIGNED },
	{ "string", DT_TK_STRING, 256, 0 },
};

/*
 * Predefined typedefs.  Those C programs also have (with <stdint.h> and
 * <sys/types.h>) keep their name in generated C; the Solaris-only ones are
 * spelled by their base type there.
 */
static const struct {
	const char *name;
	const char *base;
	bool cnative;
} base_typedefs[] = {
	{ "int8_t", "signed char", true },
	{ "int16_t", "short", true },
	{ "int32_t", "int", true },
	{ "int64_t", "long", true },
	{ "uint8_t", "unsigned char", true },
	{ "uint16_t", "unsigned short", true },
	{ "uint32_t", "unsigned int", true },
	{ "uint64_t", "unsigned long", true },
	{ "intptr_t", "long", true },
	{ "uintptr_t", "unsigned long", true },
	{ "intmax_t", "long", true },
	{ "uintmax_t", "unsigned long", true },
	{ "size_t", "unsigned long", true },
	{ "ssize_t", "long", true },
	{ "ptrdiff_t", "long", true },
	{ "off_t", "long", true },
	{ "off64_t", "long", true },
	{ "pid_t", "int", true },
	{ "uid_t", "unsigned int", true },
	{ "gid_t", "unsigned int", true },
	{ "id_t", "unsigned int", true },
	{ "mode_t", "unsigned int", true },
	{ "dev_t", "unsigned long", true },
	{ "ino_t", "unsigned long", true },
	{ "time_t", "long", true },
	{ "clock_t", "long", true },
	/* glibc's, 4 bytes and signed on x86-64 as illumos's LP64 one: what %ls and %lc take */
	{ "wchar_t", "int", false },
	{ "uchar_t", "unsigned char", false },
	{ "ushort_t", "unsigned short", false },
	{ "uint_t", "unsigned int", false },
	{ "ulong_t", "unsigned long", false },
	{ "longlong_t", "long long", false },
	{ "u_longlong_t", "unsigned long long", false },
	{ "hrtime_t", "long long", false },
	/* what uaddr() and the like, and func() and the like, give (illumos' names) */
	{ "_usymaddr", "unsigned long", false },
	{ "_symaddr", "unsigned long", false },
	/* what stack(), ustack() and jstack() give: printa's %k takes it, and nothing else does */
	{ "stack", "unsigned long", false },
	{ "processorid_t", "int", false },
	{ "zoneid_t", "int", false },
	{ "pri_t", "short", false }, /* illumos' (sched:::change-pri's args[2]) */
	{ "boolean_t", "int", false },
};

/*
 * Predefined structs: what DTrace's curpsinfo and curlwpsinfo point to (the
 * members code generation can read from a Linux task, in the order of
 * illumos' <sys/procfs.h>), and in6_addr_t for inet_ntoa6().  Each member
 * is a base type or typedef, or an array of one (nelems > 0).
 */
typedef struct predef_member {
	const char *name, *type;
	size_t nelems;
} predef_member_t;

static const predef_member_t psinfo_members[] = {
	{ "pr_nlwp", "int", 0 },    { "pr_pid", "pid_t", 0 },	 { "pr_ppid", "pid_t", 0 },
	{ "pr_pgid", "pid_t", 0 },  { "pr_sid", "pid_t", 0 },	 { "pr_uid", "uid_t", 0 },
	{ "pr_euid", "uid_t", 0 },  { "pr_gid", "gid_t", 0 },	 { "pr_egid", "gid_t", 0 },
	{ "pr_fname", "char", 16 }, { "pr_psargs", "char", 80 }, { NULL, NULL, 0 },
};

static const predef_member_t lwpsinfo_members[] = {
	{ "pr_lwpid", "id_t", 0 },
	{ "pr_onpro", "processorid_t", 0 },
	{ "pr_name", "char", 16 },
	{ NULL, NULL, 0 },
};

static const predef_member_t in6_addr_members[] = {
	{ "s6_addr", "uint8_t", 16 },
	{ NULL, NULL, 0 },
};

static const struct {
	const char *tag, *tdef;
	const predef_member_t *members;
} predef_structs[] = {
	{ "psinfo", "psinfo_t", psinfo_members },
	{ "lwpsinfo", "lwpsinfo_t", lwpsinfo_members },
	{ "in6_addr", "in6_addr_t", in6_addr_members },
};

static unsigned hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NBUCKETS;
}

static dt_tname_t *find(dt_typetab_t *tt, dt_tkind_t kind, const char *name)
{
	for (dt_tname_t *tn = tt->tt_hash[hash(name)]; tn != NULL; tn = tn->tn_next)
		if (tn->tn_kind == kind && strcmp(tn->tn_name, name) == 0)
			return tn;
	return NULL;
}

static dt_type_t *enter(dt_typetab_t *tt, dt_tkind_t nskind, const char *name, dt_type_t *t)
{
	dt_tname_t *tn = dt_arena_alloc(tt->tt_arena, sizeof(*tn));
	unsigned h = hash(name);

	if (tn == NULL)
		return NULL;
	tn->tn_name = name;
	tn->tn_kind = nskind;
	tn->tn_type = t;
	tn->tn_next = tt->tt_hash[h];
	tt->tt_hash[h] = tn;
	return t;
}

static dt_type_t *newtype(dt_typetab_t *tt, dt_tkind_t kind, size_t size, int flags,
			  const char *name, dt_type_t *ref)
{
	dt_type_t *t = dt_arena_alloc(tt->tt_arena, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->dtt_kind = kind;
	t->dtt_size = size;
	t->dtt_flags = flags;
	t->dtt_name = name;
	t->dtt_ref = ref;
	return t;
}

/* struct tag { members }, laid out as C does, and typedef struct tag tdef. */
static int predef_struct(dt_typetab_t *tt, const char *tag, const char *tdef,
			 const predef_member_t *pm)
{
	dt_type_t *st = dt_type_tag(tt, DT_TK_STRUCT, tag);
	dt_member_t **tail;
	size_t off = 0, align = 1;

	if (st == NULL)
		return -1;
	tail = &st->dtt_tag->td_members;
	for (; pm->name != NULL; pm++) {
		dt_member_t *m = dt_arena_alloc(tt->tt_arena, sizeof(*m));
		dt_type_t *t = dt_type_lookup(tt, pm->type);
		size_t a;

		if (m == NULL || t == NULL)
			return -1;
		if (pm->nelems > 0 && (t = dt_type_array(tt, t, pm->nelems)) == NULL)
			return -1;
		a = dt_type_align(t);
		off = (off + a - 1) / a * a;
		m->dm_name = pm->name;
		m->dm_type = t;
		m->dm_off = off;
		off += dt_type_size(t);
		align = a > align ? a : align;
		*tail = m;
		tail = &m->dm_next;
	}
	st->dtt_tag->td_size = (off + align - 1) / align * align;
	st->dtt_tag->td_align = align;
	st->dtt_tag->td_complete = true;
	return dt_type_typedef(tt, tdef, st) == 0 ? 0 : -1;
}

dt_typetab_t *dt_typetab_create(dt_arena_t *a, bool psinfo)
{
	dt_typetab_t *tt = dt_arena_alloc(a, sizeof(*tt));

	if (tt == NULL)
		return NULL;
	tt->tt_arena = a;
	for (size_t i = 0; i < sizeof(base_types) / sizeof(base_types[0]); i++) {
		dt_type_t *t = newtype(tt, base_types[i].kind, base_types[i].size,
				       base_types[i].flags, base_types[i].name, NULL);

		if (t == NULL || enter(tt, DT_TK_VOID, base_types[i].name, t) == NULL)
			return NULL;
	}
	for (size_t i = 0; i < sizeof(base_typedefs) / sizeof(base_typedefs[0]); i++) {
		dt_type_t *b = dt_type_lookup(tt, base_typedefs[i].base);
		dt_type_t *t;

		if (b == NULL)
			return NULL;
		t = newtype(tt, DT_TK_TYPEDEF, b->dtt_size, b->dtt_flags & DT_TF_SIGNED,
			    base_typedefs[i].name, b);
		if (t == NULL)
			return NULL;
		if (base_typedefs[i].cnative)
			t->dtt_flags |= DT_TF_CNATIVE;
		if (enter(tt, DT_TK_VOID, base_typedefs[i].name, t) == NULL)
			return NULL;
	}
	/* the Guide's caddr_t (char *), and IPv4 addresses for inet_ntoa() */
	{
		dt_type_t *c = dt_type_pointer(tt, dt_type_lookup(tt, "char"));
		dt_type_t *u32 = dt_type_lookup(tt, "uint32_t");

		if (c == NULL || dt_type_typedef(tt, "caddr_t", c) != 0 ||
		    dt_type_typedef(tt, "ipaddr_t", u32) != 0 ||
		    dt_type_typedef(tt, "in_addr_t", u32) != 0)
			return NULL;
	}
	for (size_t i = 0; i < sizeof(predef_structs) / sizeof(predef_structs[0]); i++)
		if ((psinfo || strstr(predef_structs[i].tag, "psinfo") == NULL) &&
		    predef_struct(tt, predef_structs[i].tag, predef_structs[i].tdef,
				  predef_structs[i].members) != 0)
			return NULL;
	return tt;
}

/* Base types and typedefs share one name space (kind DT_TK_VOID here). */
dt_type_t *dt_type_lookup(dt_typetab_t *tt, const char *name)
{
	dt_tname_t *tn = find(tt, DT_TK_VOID, name);
	size_t n = strlen(name);
	ks_btf_t *b;
	int id;

	if (tn != NULL)
		return tn->tn_type;
	/*
	 * A kernel typedef D lacks (atomic_t, sector_t): only names in _t,
	 * so that the kernel's u32 or bool do not take D identifiers.
	 */
	if (tt->tt_hdl == NULL || n < 3 || strcmp(name + n - 2, "_t") != 0 ||
	    (b = dt_btf(tt->tt_hdl)) == NULL || (id = ks_btf_find(b, name, KS_BTF_TYPEDEF)) <= 0)
		return NULL;
	return import(tt, (uint32_t)id, 0);
}

dt_type_t *dt_type_tag(dt_typetab_t *tt, dt_tkind_t kind, const char *tag)
{
	dt_tname_t *tn = tag != NULL ? find(tt, kind, tag) : NULL;
	dt_type_t *t;

	if (tn != NULL)
		return tn->tn_type;
	/* a new tag is an incomplete type until a definition completes it */
	t = newtype(tt, kind, kind == DT_TK_ENUM ? 4 : 0, kind == DT_TK_ENUM ? DT_TF_SIGNED : 0,
		    tag, NULL);
	if (t == NULL || (t->dtt_tag = dt_arena_alloc(tt->tt_arena, sizeof(*t->dtt_tag))) == NULL)
		return NULL;
	/* an anonymous tag (NULL) is not entered: each is its own type */
	return tag != NULL ? enter(tt, kind, tag, t) : t;
}

dt_type_t *dt_type_pointer(dt_typetab_t *tt, dt_type_t *ref)
{
	return newtype(tt, DT_TK_PTR, 8, 0, NULL, ref);
}

dt_type_t *dt_type_array(dt_typetab_t *tt, dt_type_t *ref, size_t n)
{
	dt_type_t *t = newtype(tt, DT_TK_ARRAY, ref->dtt_size * n, 0, NULL, ref);

	if (t != NULL)
		t->dtt_nelems = n;
	return t;
}

dt_type_t *dt_type_func(dt_typetab_t *tt, dt_type_t *ret, dt_type_t *const *args, int nargs,
			bool varargs)
{
	dt_type_t *t = newtype(tt, DT_TK_FUNC, 0, varargs ? DT_TF_VARARGS : 0, NULL, ret);

	if (t == NULL)
		return NULL;
	if (nargs > 0) {
		t->dtt_args = dt_arena_alloc(tt->tt_arena, sizeof(*t->dtt_args) * (size_t)nargs);
		if (t->dtt_args == NULL)
			return NULL;
		memcpy(t->dtt_args, args, sizeof(*t->dtt_args) * (size_t)nargs);
	}
	t->dtt_nargs = nargs;
	/* how deep it nests, its parameters' types included: worked out once */
	t->dtt_nelems = (size_t)dt_type_depth(ret);
	for (int i = 0; i < nargs; i++)
		if ((size_t)dt_type_depth(args[i]) > t->dtt_nelems)
			t->dtt_nelems = (size_t)dt_type_depth(args[i]);
	t->dtt_nelems++;
	return t;
}

int dt_type_depth(const dt_type_t *t)
{
	int d = 0;

	for (; t != NULL; t = t->dtt_ref) {
		if (t->dtt_kind == DT_TK_FUNC)
			return d + (int)t->dtt_nelems;
		d++;
	}
	return d;
}

dt_type_t *dt_type_qualify(dt_typetab_t *tt, dt_type_t *t, int quals)
{
	dt_type_t *q;

	quals &= DT_TF_CONST | DT_TF_VOLATILE;
	if ((t->dtt_flags & quals) == quals)
		return t;
	q = dt_arena_alloc(tt->tt_arena, sizeof(*q));
	if (q == NULL)
		return NULL;
	*q = *t;
	q->dtt_flags |= quals;
	return q;
}

int dt_type_typedef(dt_typetab_t *tt, const char *name, dt_type_t *t)
{
	dt_type_t *td;

	if (find(tt, DT_TK_VOID, name) != NULL)
		return -1;
	td = newtype(tt, DT_TK_TYPEDEF, t->dtt_size, t->dtt_flags & DT_TF_SIGNED, name, t);
	if (td == NULL || enter(tt, DT_TK_VOID, name, td) == NULL)
		return -2;
	return 0;
}

const dt_type_t *dt_type_resolve(const dt_type_t *t)
{
	while (t != NULL && t->dtt_kind == DT_TK_TYPEDEF)
		t = t->dtt_ref;
	return t;
}

/* A small bounded string builder: writes what fits, counts everything. */
typedef struct sbuf {
	char *buf;
	size_t len, n;
	char last; /* the last character written (or that would have been) */
} sbuf_t;

static void sput(sbuf_t *sb, const char *s)
{
	size_t l = strlen(s);

	if (sb->len > 0 && sb->n < sb->len - 1) {
		size_t room = sb->len - 1 - sb->n;

		memcpy(sb->buf + sb->n, s, l < room ? l : room);
		sb->buf[sb->n + (l < room ? l : room)] = '\0';
	}
	sb->n += l;
	if (l > 0)
		sb->last = s[l - 1];
}

/*
 * Types are spelled as C declares them, the name left out: what comes
 * before the name (the base type and pointers), then what comes after it
 * (array dimensions and parameter lists), with parentheses where a pointer
 * applies to an array or function: "int (*)[4]", "void (*[4])(void)".
 */
static void spell_pre(sbuf_t *sb, const dt_type_t *t, bool cnames);
static void spell_post(sbuf_t *sb, const dt_type_t *t, bool cnames);

/* With C names, a D-only typedef is spelled as what it names, its qualifiers kept. */
static bool c_typedef(const dt_type_t *t, bool cnames, dt_type_t *r)
{
	if (t->dtt_kind != DT_TK_TYPEDEF || !cnames || (t->dtt_flags & DT_TF_CNATIVE))
		return false;
	*r = *t->dtt_ref;
	r->dtt_flags |= t->dtt_flags & (DT_TF_CONST | DT_TF_VOLATILE);
	return true;
}

static bool wraps(const dt_type_t *ref)
{
	return ref->dtt_kind == DT_TK_ARRAY || ref->dtt_kind == DT_TK_FUNC;
}

static void spell_pre(sbuf_t *sb, const dt_type_t *t, bool cnames)
{
	const char *q = (t->dtt_flags & DT_TF_CONST) ? "const " : "";
	const char *v = (t->dtt_flags & DT_TF_VOLATILE) ? "volatile " : "";
	dt_type_t r;

	switch (t->dtt_kind) {
	case DT_TK_PTR: {
		const dt_type_t *ref = t->dtt_ref;

		spell_pre(sb, ref, cnames);
		/* "char *", "char **", "char *const *", "int (*)(int)" */
		if (wraps(ref))
			sput(sb, sb->last == '*' || sb->last == '(' ? "(*" : " (*");
		else if ((ref->dtt_kind == DT_TK_PTR ||
			  (ref->dtt_kind == DT_TK_STRING && cnames)) &&
			 !(ref->dtt_flags & (DT_TF_CONST | DT_TF_VOLATILE)))
			sput(sb, "*");
		else
			sput(sb, " *");
		if (*q)
			sput(sb, *v ? "const volatile" : "const");
		else if (*v)
			sput(sb, "volatile");
		return;
	}
	case DT_TK_ARRAY:
	case DT_TK_FUNC: spell_pre(sb, t->dtt_ref, cnames); return;
	case DT_TK_TYPEDEF:
		if (c_typedef(t, cnames, &r)) {
			spell_pre(sb, &r, cnames);
			return;
		}
		break;
	case DT_TK_STRING:
		if (cnames) { /* a D string crosses into C as a char pointer */
			sput(sb, q);
			sput(sb, "char *");
			return;
		}
		break;
	default: break;
	}
	sput(sb, q);
	sput(sb, v);
	if (t->dtt_kind == DT_TK_STRUCT)
		sput(sb, "struct ");
	else if (t->dtt_kind == DT_TK_UNION)
		sput(sb, "union ");
	else if (t->dtt_kind == DT_TK_ENUM)
		sput(sb, "enum ");
	sput(sb, t->dtt_name != NULL ? t->dtt_name : "?");
}

static void spell_post(sbuf_t *sb, const dt_type_t *t, bool cnames)
{
	dt_type_t r;
	char n[32];

	switch (t->dtt_kind) {
	case DT_TK_PTR:
		if (wraps(t->dtt_ref))
			sput(sb, ")");
		spell_post(sb, t->dtt_ref, cnames);
		return;
	case DT_TK_ARRAY:
		snprintf(n, sizeof(n), "[%zu]", t->dtt_nelems);
		sput(sb, n);
		spell_post(sb, t->dtt_ref, cnames);
		return;
	case DT_TK_FUNC:
		/* "int (int)" alone, "int (*)(int)" after a declarator */
		sput(sb, sb->last == ')' ? "(" : " (");
		for (int i = 0; i < t->dtt_nargs; i++) {
			if (i > 0)
				sput(sb, ", ");
			spell_pre(sb, t->dtt_args[i], cnames);
			spell_post(sb, t->dtt_args[i], cnames);
		}
		if (t->dtt_flags & DT_TF_VARARGS)
			sput(sb, t->dtt_nargs > 0 ? ", ..." : "...");
		else if (t->dtt_nargs == 0)
			sput(sb, "void");
		sput(sb, ")");
		spell_post(sb, t->dtt_ref, cnames);
		return;
	case DT_TK_TYPEDEF:
		if (c_typedef(t, cnames, &r))
			spell_post(sb, &r, cnames);
		return;
	default: return;
	}
}

static void spell(sbuf_t *sb, const dt_type_t *t, bool cnames)
{
	spell_pre(sb, t, cnames);
	spell_post(sb, t, cnames);
}

size_t dt_type_name(const dt_type_t *t, char *buf, size_t len)
{
	sbuf_t sb = { buf, len, 0, 0 };

	if (len > 0)
		buf[0] = '\0';
	spell(&sb, t, false);
	return sb.n;
}

size_t dt_type_cname(const dt_type_t *t, char *buf, size_t len)
{
	sbuf_t sb = { buf, len, 0, 0 };

	if (len > 0)
		buf[0] = '\0';
	spell(&sb, t, true);
	return sb.n;
}

size_t dt_type_size(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	if (t == NULL)
		return 0;
	complete(t);
	switch (t->dtt_kind) {
	case DT_TK_STRUCT:
	case DT_TK_UNION:
		return t->dtt_tag != NULL && t->dtt_tag->td_complete ? t->dtt_tag->td_size : 0;
	case DT_TK_ARRAY: return dt_type_size(t->dtt_ref) * t->dtt_nelems;
	default: return t->dtt_size;
	}
}

size_t dt_type_align(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	if (t == NULL)
		return 1;
	complete(t);
	switch (t->dtt_kind) {
	case DT_TK_STRUCT:
	case DT_TK_UNION:
		return t->dtt_tag != NULL && t->dtt_tag->td_align ? t->dtt_tag->td_align : 1;
	case DT_TK_ARRAY: return dt_type_align(t->dtt_ref);
	case DT_TK_STRING: return 1;
	default: return t->dtt_size ? (t->dtt_size > 8 ? 16 : t->dtt_size) : 1;
	}
}

bool dt_type_is_int(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->dtt_kind == DT_TK_INT || t->dtt_kind == DT_TK_ENUM);
}

bool dt_type_is_ptr(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->dtt_kind == DT_TK_PTR || t->dtt_kind == DT_TK_ARRAY);
}

bool dt_type_is_scalar(const dt_type_t *t)
{
	return dt_type_is_int(t) || dt_type_is_ptr(t);
}

bool dt_type_is_string(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && t->dtt_kind == DT_TK_STRING;
}

bool dt_type_is_sou(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->dtt_kind == DT_TK_STRUCT || t->dtt_kind == DT_TK_UNION);
}

bool dt_type_is_void(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && t->dtt_kind == DT_TK_VOID;
}

bool dt_type_is_signed(const dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->dtt_flags & DT_TF_SIGNED);
}

/* Same type, looking through typedefs and top-level qualifiers. */
static bool same(const dt_type_t *a, const dt_type_t *b)
{
	a = dt_type_resolve(a);
	b = dt_type_resolve(b);
	if (a == NULL || b == NULL || a->dtt_kind != b->dtt_kind)
		return false;
	switch (a->dtt_kind) {
	case DT_TK_PTR:
		return same(a->dtt_ref, b->dtt_ref) || dt_type_is_void(a->dtt_ref) ||
		       dt_type_is_void(b->dtt_ref);
	case DT_TK_ARRAY: return a->dtt_nelems == b->dtt_nelems && same(a->dtt_ref, b->dtt_ref);
	case DT_TK_FUNC:
		if (a->dtt_nargs != b->dtt_nargs ||
		    (a->dtt_flags & DT_TF_VARARGS) != (b->dtt_flags & DT_TF_VARARGS) ||
		    !same(a->dtt_ref, b->dtt_ref))
			return false;
		for (int i = 0; i < a->dtt_nargs; i++)
			if (!same(a->dtt_args[i], b->dtt_args[i]))
				return false;
		return true;
	case DT_TK_STRUCT:
	case DT_TK_UNION:
	case DT_TK_ENUM: return a->dtt_tag == b->dtt_tag;
	default:
		return a->dtt_size == b->dtt_size &&
		       (a->dtt_flags & DT_TF_SIGNED) == (b->dtt_flags & DT_TF_SIGNED);
	}
}

bool dt_type_compatible(const dt_type_t *dst, const dt_type_t *src)
{
	const dt_type_t *d = dt_type_resolve(dst), *s = dt_type_resolve(src);

	if (d == NULL || s == NULL)
		return false;
	if (dt_type_is_int(d) && dt_type_is_int(s))
		return true;
	if (d->dtt_kind == DT_TK_STRING || s->dtt_kind == DT_TK_STRING)
		/* strings take strings, and char pointers and arrays (D's promotion) */
		return (d->dtt_kind == DT_TK_STRING || s->dtt_kind == DT_TK_STRING) &&
		       (d->dtt_kind == s->dtt_kind ||
			(dt_type_is_ptr(d->dtt_kind == DT_TK_STRING ? s : d) &&
			 dt_type_is_int((d->dtt_kind == DT_TK_STRING ? s : d)->dtt_ref) &&
			 dt_type_size((d->dtt_kind == DT_TK_STRING ? s : d)->dtt_ref) == 1));
	if (dt_type_is_ptr(d) && dt_type_is_ptr(s))
		return same(d->dtt_ref, s->dtt_ref) || dt_type_is_void(d->dtt_ref) ||
		       dt_type_is_void(s->dtt_ref);
	if (dt_type_is_ptr(d) && dt_type_is_int(s))
		return false;
	return same(d, s);
}

const dt_member_t *dt_type_member(const dt_type_t *t, const char *name)
{
	t = dt_type_resolve(t);
	if (t == NULL || t->dtt_tag == NULL)
		return NULL;
	complete(t);
	for (const dt_member_t *m = t->dtt_tag->td_members; m != NULL; m = m->dm_next)
		if (m->dm_name != NULL && strcmp(m->dm_name, name) == 0)
			return m;
	return NULL;
}

/* ---------------------------------------------------------------- kernel types */

ks_btf_t *dt_btf(dtrace_hdl_t *dtp)
{
	if (!dtp->dt_btf_tried) {
		dtp->dt_btf_tried = true;
		if (ks_btf_open(&dtp->dt_btf) != 0)
			dtp->dt_btf = NULL;
	}
	return dtp->dt_btf;
}

void dt_typetab_kernel(dt_typetab_t *tt, dtrace_hdl_t *dtp)
{
	tt->tt_hdl = dtp;
}

bool dt_type_is_kernel(const dt_type_t *t)
{
	for (int i = 0; t != NULL && i < 8; i++) {
		if (t->dtt_flags & DT_TF_KERNEL)
			return true;
		if (t->dtt_kind != DT_TK_TYPEDEF && t->dtt_kind != DT_TK_PTR &&
		    t->dtt_kind != DT_TK_ARRAY)
			return false;
		t = t->dtt_ref;
	}
	return false;
}

/* The D base type of a BTF integer. */
static dt_type_t *base_int(dt_typetab_t *tt, const ks_btf_type_t *bt)
{
	const char *name;

	if (bt->is_bool)
		name = "_Bool";
	else if (bt->size == 1)
		name = bt->is_char ? "char" : bt->is_signed ? "signed char" : "unsigned char";
	else if (bt->size == 2)
		name = bt->is_signed ? "short" : "unsigned short";
	else if (bt->size == 4)
		name = bt->is_signed ? "int" : "unsigned int";
	else if (bt->size == 8)
		name = bt->is_signed ? "long" : "unsigned long";
	else /* __int128: its bytes */
		return dt_type_array(tt, dt_type_lookup(tt, "unsigned char"), bt->size);
	return dt_type_lookup(tt, name);
}

/* A struct or union tag bound to BTF id (members read by complete()). */
static void bind(dt_typetab_t *tt, dt_type_t *t, uint32_t id)
{
	if (t->dtt_tag->td_complete || t->dtt_tag->td_btfid != 0)
		return;
	t->dtt_tag->td_btfid = id;
	t->dtt_tag->td_tt = tt;
	t->dtt_flags |= DT_TF_KERNEL;
}

/* enum: its enumerators kept with the type (print() names values by them) */
static dt_type_t *import_enum(dt_typetab_t *tt, dt_type_t *e, const ks_btf_type_t *bt)
{
	ks_btf_t *b = dt_btf(tt->tt_hdl);
	dt_member_t **tail = &e->dtt_tag->td_enums;

	if (e->dtt_tag->td_complete)
		return e;
	for (uint32_t i = 0; i < bt->vlen; i++) {
		dt_member_t *en = dt_arena_alloc(tt->tt_arena, sizeof(*en));
		const char *name;
		int64_t v;

		if (en == NULL || ks_btf_enumerator(b, bt->id, i, &name, &v) != 0)
			return NULL;
		*en = (dt_member_t){ NULL, name, e, (size_t)v, 0, 0 };
		*tail = en;
		tail = &en->dm_next;
	}
	e->dtt_size = bt->size;
	e->dtt_flags = (bt->is_signed ? DT_TF_SIGNED : 0) | DT_TF_KERNEL;
	e->dtt_tag->td_size = bt->size;
	e->dtt_tag->td_align = bt->size;
	e->dtt_tag->td_complete = true;
	return e;
}

/* BTF type id as a D type, structs and unions without their members yet. */
static dt_type_t *import(dt_typetab_t *tt, uint32_t id, int depth)
{
	ks_btf_t *b = dt_btf(tt->tt_hdl);
	ks_btf_type_t bt;
	dt_type_t *t, *r;

	if (b == NULL || depth > 32 || ks_btf_type(b, id, &bt) != 0)
		return NULL;
	switch (bt.kind) {
	case KS_BTF_VOID:
	case KS_BTF_FUNC: return dt_type_lookup(tt, "void"); /* a function pointer: void * */
	case KS_BTF_INT: return base_int(tt, &bt);
	case KS_BTF_FLOAT:
		return dt_type_lookup(tt, bt.size == 4	 ? "float"
					  : bt.size == 8 ? "double"
							 : "long double");
	case KS_BTF_PTR:
		if ((r = import(tt, bt.ref, depth + 1)) == NULL)
			r = dt_type_lookup(tt, "void");
		if ((t = dt_type_pointer(tt, r)) != NULL)
			t->dtt_flags |= DT_TF_KERNEL;
		return t;
	case KS_BTF_ARRAY:
		if ((r = import(tt, bt.ref, depth + 1)) == NULL)
			return NULL;
		complete(dt_type_resolve(r)); /* its size */
		if ((t = dt_type_array(tt, r, bt.nelems)) != NULL)
			t->dtt_flags |= DT_TF_KERNEL;
		return t;
	case KS_BTF_STRUCT:
	case KS_BTF_UNION: {
		dt_tkind_t k = bt.kind == KS_BTF_STRUCT ? DT_TK_STRUCT : DT_TK_UNION;
		char *name = NULL;

		if (bt.name != NULL &&
		    (name = dt_arena_strndup(tt->tt_arena, bt.name, strlen(bt.name))) == NULL)
			return NULL;
		if ((t = dt_type_tag(tt, k, name)) == NULL)
			return NULL;
		if (bt.is_fwd) { /* the definition, elsewhere in BTF */
			int def = name != NULL ? ks_btf_find(b, name, bt.kind) : -ENOENT;

			if (def <= 0)
				return t; /* stays incomplete */
			bt.id = (uint32_t)def;
		}
		bind(tt, t, bt.id);
		return t;
	}
	case KS_BTF_ENUM: {
		char *name = NULL;

		if (bt.name != NULL &&
		    (name = dt_arena_strndup(tt->tt_arena, bt.name, strlen(bt.name))) == NULL)
			return NULL;
		if ((t = dt_type_tag(tt, DT_TK_ENUM, name)) == NULL)
			return NULL;
		return import_enum(tt, t, &bt);
	}
	case KS_BTF_TYPEDEF: {
		dt_type_t *td;
		char *name;

		if (bt.name == NULL)
			return import(tt, bt.ref, depth + 1);
		r = import(tt, bt.ref, depth + 1);
		/*
		 * D's own (pid_t, size_t), unless its size is not the kernel's:
		 * D's dev_t is user space's 8 bytes, the kernel's 4 (the
		 * kernel's type then, so that a member of it is read right)
		 */
		if (find(tt, DT_TK_VOID, bt.name) != NULL) {
			td = find(tt, DT_TK_VOID, bt.name)->tn_type;
			return r == NULL || dt_type_size(td) == dt_type_size(r) ? td : r;
		}
		if (r == NULL ||
		    (name = dt_arena_strndup(tt->tt_arena, bt.name, strlen(bt.name))) == NULL ||
		    dt_type_typedef(tt, name, r) != 0 || find(tt, DT_TK_VOID, name) == NULL)
			return NULL;
		td = find(tt, DT_TK_VOID, name)->tn_type;
		td->dtt_flags |= DT_TF_KERNEL;
		return td;
	}
	default: return NULL;
	}
}

/* Members of BTF struct or union id at byte offset base, anonymous ones' spread out as C finds them. */
static int add_members(dt_typetab_t *tt, dt_member_t ***tail, uint32_t id, size_t base,
		       size_t *align, int depth)
{
	ks_btf_t *b = dt_btf(tt->tt_hdl);
	ks_btf_type_t bt;

	if (depth > 8 || ks_btf_type(b, id, &bt) != 0)
		return -1;
	for (uint32_t i = 0; i < bt.vlen; i++) {
		ks_btf_member_t m;
		ks_btf_type_t mt;
		dt_member_t *dm;
		dt_type_t *t;
		size_t a;

		if (ks_btf_member(b, bt.id, i, &m) != 0)
			return -1;
		if (m.name == NULL) {
			if (ks_btf_type(b, m.type, &mt) == 0 &&
			    (mt.kind == KS_BTF_STRUCT || mt.kind == KS_BTF_UNION) && !mt.is_fwd &&
			    add_members(tt, tail, mt.id, base + m.bitoff / 8, align, depth + 1) !=
				0)
				return -1;
			continue;
		}
		if ((t = import(tt, m.type, 0)) == NULL)
			continue; /* a kind D cannot name: the member is not there for D */
		if ((dm = dt_arena_alloc(tt->tt_arena, sizeof(*dm))) == NULL)
			return -1;
		dm->dm_next = NULL;
		dm->dm_name = m.name;
		dm->dm_type = t;
		dm->dm_off = base + m.bitoff / 8;
		if (m.bitsize != 0) {
			dm->dm_bits = (int)m.bitsize;
			dm->dm_bitoff = (int)(m.bitoff % 8);
		}
		a = dt_type_is_sou(t) ? 8 : dt_type_align(t);
		*align = a > *align ? a : *align;
		**tail = dm;
		*tail = &dm->dm_next;
	}
	return 0;
}

/* A kernel struct or union's members, read when D first needs them (its size, a member). */
static void complete(const dt_type_t *t)
{
	dt_tagdef_t *td = t->dtt_tag;
	dt_member_t **tail;
	ks_btf_type_t bt;
	size_t align = 1;

	if ((t->dtt_kind != DT_TK_STRUCT && t->dtt_kind != DT_TK_UNION) || td == NULL ||
	    td->td_complete || td->td_btfid == 0 || td->td_tt == NULL ||
	    dt_btf(td->td_tt->tt_hdl) == NULL ||
	    ks_btf_type(dt_btf(td->td_tt->tt_hdl), td->td_btfid, &bt) != 0)
		return;
	td->td_complete = true; /* a member pointing back finds it complete */
	td->td_size = bt.size;
	tail = &td->td_members;
	(void)add_members(td->td_tt, &tail, td->td_btfid, 0, &align, 0);
	td->td_align = align > 8 ? 8 : align;
}

bool dt_type_kernel_tag(dt_typetab_t *tt, dt_type_t *t)
{
	ks_btf_t *b;
	ks_btf_type_t bt;
	int kind = t->dtt_kind == DT_TK_STRUCT	? KS_BTF_STRUCT
		   : t->dtt_kind == DT_TK_UNION ? KS_BTF_UNION
						: KS_BTF_ENUM;
	int id;

	if (t->dtt_tag == NULL || t->dtt_tag->td_complete || t->dtt_tag->td_btfid != 0)
		return t->dtt_tag != NULL && t->dtt_tag->td_btfid != 0;
	if (tt->tt_hdl == NULL || t->dtt_name == NULL || (b = dt_btf(tt->tt_hdl)) == NULL ||
	    (id = ks_btf_find(b, t->dtt_name, kind)) <= 0)
		return false;
	if (kind != KS_BTF_ENUM) {
		bind(tt, t, (uint32_t)id);
		return true;
	}
	return ks_btf_type(b, (uint32_t)id, &bt) == 0 && import_enum(tt, t, &bt) != NULL;
}

dt_type_t *dt_type_parse_string(dt_typetab_t *tt, const char *s)
{
	char words[8][64], base[192] = "";
	int nw = 0, quals = 0, stars = 0;
	dt_type_t *t;
	const char *p = s;

	/* words up to the first '*' */
	while (*p != '\0' && *p != '*') {
		size_t n;

		while (*p == ' ')
			p++;
		n = strcspn(p, " *");
		if (n == 0)
			break;
		if (nw == 8 || n >= sizeof(words[0]))
			return NULL;
		memcpy(words[nw], p, n);
		words[nw++][n] = '\0';
		p += n;
	}
	for (int i = 0; i < nw; i++) {
		if (strcmp(words[i], "const") == 0)
			quals |= DT_TF_CONST;
		else if (strcmp(words[i], "volatile") == 0)
			quals |= DT_TF_VOLATILE;
		else if (strcmp(words[i], "struct") == 0 || strcmp(words[i], "union") == 0 ||
			 strcmp(words[i], "enum") == 0) {
			if (base[0] != '\0' || i + 1 >= nw)
				return NULL;
			snprintf(base, sizeof(base), "%s %s", words[i], words[i + 1]);
			i++;
		} else {
			size_t len = strlen(base);

			if (strchr(base, ' ') != NULL &&
			    (strncmp(base, "struct ", 7) == 0 || strncmp(base, "union ", 6) == 0 ||
			     strncmp(base, "enum ", 5) == 0))
				return NULL;
			snprintf(base + len, sizeof(base) - len, "%s%s", len ? " " : "", words[i]);
		}
	}
	if (base[0] == '\0')
		return NULL;
	/* a new tag keeps its name: the arena's copy */
	if (strncmp(base, "struct ", 7) == 0 || strncmp(base, "union ", 6) == 0 ||
	    strncmp(base, "enum ", 5) == 0) {
		const char *tag = strchr(base, ' ') + 1;
		char *copy = dt_arena_strndup(tt->tt_arena, tag, strlen(tag));

		t = copy == NULL     ? NULL
		    : base[0] == 's' ? dt_type_tag(tt, DT_TK_STRUCT, copy)
		    : base[0] == 'u' ? dt_type_tag(tt, DT_TK_UNION, copy)
				     : dt_type_tag(tt, DT_TK_ENUM, copy);
		/* a probe argument's struct file *: the kernel's, when D has no struct file */
		if (t != NULL)
			(void)dt_type_kernel_tag(tt, t);
	} else
		t = dt_type_lookup(tt, base);
	if (t != NULL && quals != 0)
		t = dt_type_qualify(tt, t, quals);
	/* then pointers, each maybe const */
	for (; t != NULL && *p != '\0'; p++) {
		if (*p == ' ')
			continue;
		if (*p == '*') {
			t = dt_type_pointer(tt, t);
			stars++;
		} else if (strncmp(p, "const", 5) == 0 && stars > 0) {
			t = dt_type_qualify(tt, t, DT_TF_CONST);
			p += 4;
		} else {
			return NULL;
		}
	}
	return t;
}
