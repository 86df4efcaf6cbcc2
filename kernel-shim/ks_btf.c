/*
 * ks_btf.c -- the running kernel's types, from its BTF: member offsets
 * by path and enumerator values, for code that reads kernel structures
 * (dtrace's curpsinfo, ppid, vtimestamp).
 *
 * libbpf finds a type by name by scanning all of vmlinux's types (over
 * 100,000), so every name asked for is looked up once per handle; paths
 * into a struct's members follow member types and need no lookup.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "ks.h"

typedef struct named {
	char *n_name;
	int n_kind;
	int n_id; /* or -ENOENT */
} named_t;

/* One slot of the name index: a type (or an enum holding an enumerator) by name. */
static int find_scan(ks_btf_t *b, const char *name, int kind);

typedef struct slot {
	const char *s_name; /* NULL: empty */
	uint32_t s_id;
	int s_kind; /* a BTF kind, or -1 for an enumerator (s_id its enum, s_ix its index) */
	uint32_t s_ix;
} slot_t;

struct ks_btf {
	struct btf *b_btf;
	named_t *b_names;
	size_t b_n, b_cap;
	slot_t *b_index;	 /* every named struct, union, enum, typedef and enumerator */
	size_t b_nslots;	 /* a power of 2; 0 until the first lookup builds it */
	struct btf_dump *b_dump; /* types written as C, into b_text */
	char *b_text;
	size_t b_tlen, b_tcap;
	bool b_toom;
};

int ks_btf_open(ks_btf_t **bp)
{
	ks_btf_t *b;

	*bp = NULL;
	if ((b = calloc(1, sizeof(*b))) == NULL)
		return -ENOMEM;
	if ((b->b_btf = btf__load_vmlinux_btf()) == NULL) {
		int err = errno > 0 ? errno : ENOENT;

		free(b);
		return -err;
	}
	*bp = b;
	return 0;
}

void ks_btf_close(ks_btf_t *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->b_n; i++)
		free(b->b_names[i].n_name);
	free(b->b_names);
	free(b->b_index);
	btf_dump__free(b->b_dump);
	free(b->b_text);
	btf__free(b->b_btf);
	free(b);
}

static size_t hash(const char *s, int kind)
{
	size_t h = 2166136261u ^ (size_t)(kind + 2);

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void put(ks_btf_t *b, const char *name, int kind, uint32_t id, uint32_t ix)
{
	size_t m = b->b_nslots - 1;

	for (size_t i = hash(name, kind) & m;; i = (i + 1) & m) {
		slot_t *sl = &b->b_index[i];

		if (sl->s_name == NULL) {
			*sl = (slot_t){ name, id, kind, ix };
			return;
		}
		if (sl->s_kind == kind && strcmp(sl->s_name, name) == 0)
			return; /* the first of a name, as libbpf's search finds it */
	}
}

/*
 * The index of names, made by one pass over every type at the first
 * enumerator lookup or after KS_BTF_SCANS type names: libbpf finds a name
 * by scanning all of them, and a compile asks for dozens (a program's undeclared identifiers are looked for among the
 * enumerators).  0 or -ENOMEM.
 */
static int index_names(ks_btf_t *b)
{
	const struct btf *btf = b->b_btf;
	uint32_t n = btf__type_cnt(btf);
	size_t want = 0;

	if (b->b_nslots != 0)
		return 0;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		want += 1 + ((btf_is_enum(t) || btf_is_enum64(t)) ? btf_vlen(t) : 0);
	}
	for (b->b_nslots = 1024; b->b_nslots < 2 * want; b->b_nslots *= 2)
		;
	if ((b->b_index = calloc(b->b_nslots, sizeof(slot_t))) == NULL) {
		b->b_nslots = 0;
		return -ENOMEM;
	}
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);
		int kind = btf_kind(t);

		if (name != NULL && name[0] != '\0' &&
		    (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION || kind == BTF_KIND_ENUM ||
		     kind == BTF_KIND_ENUM64 || kind == BTF_KIND_TYPEDEF))
			put(b, name, kind, id, 0);
		if (kind != BTF_KIND_ENUM && kind != BTF_KIND_ENUM64)
			continue;
		for (uint32_t i = 0; i < btf_vlen(t); i++) {
			const char *en = btf__name_by_offset(btf, kind == BTF_KIND_ENUM
								      ? btf_enum(t)[i].name_off
								      : btf_enum64(t)[i].name_off);

			if (en != NULL && en[0] != '\0')
				put(b, en, -1, id, i);
		}
	}
	return 0;
}

static const slot_t *lookup(ks_btf_t *b, const char *name, int kind)
{
	size_t m;

	if (index_names(b) != 0)
		return NULL;
	m = b->b_nslots - 1;
	for (size_t i = hash(name, kind) & m; b->b_index[i].s_name != NULL; i = (i + 1) & m)
		if (b->b_index[i].s_kind == kind && strcmp(b->b_index[i].s_name, name) == 0)
			return &b->b_index[i];
	return NULL;
}

/*
 * The names found by scanning before the index is made: a handle that asks
 * for a few (the loader's task offsets: a dozen) scans for each, ~0.5 ms, and
 * spares the index's ~12 MB; a compile that asks for dozens gets it.
 */
#define KS_BTF_SCANS 16

/* A type's id by name and kind, each (name, kind) scanned for once; or a negative errno. */
static int find(ks_btf_t *b, const char *name, int kind)
{
	if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION || kind == BTF_KIND_ENUM ||
	     kind == BTF_KIND_ENUM64 || kind == BTF_KIND_TYPEDEF) &&
	    (b->b_nslots != 0 || b->b_n >= KS_BTF_SCANS)) {
		const slot_t *sl = lookup(b, name, kind);

		if (sl != NULL || b->b_nslots != 0)
			return sl != NULL ? (int)sl->s_id : -ENOENT;
	}
	return find_scan(b, name, kind);
}

/* find() without the index: a scan of every type, once per (name, kind) */
static int find_scan(ks_btf_t *b, const char *name, int kind)
{
	named_t *n;

	for (size_t i = 0; i < b->b_n; i++)
		if (b->b_names[i].n_kind == kind && strcmp(b->b_names[i].n_name, name) == 0)
			return b->b_names[i].n_id;
	if (b->b_n == b->b_cap) {
		size_t cap = b->b_cap ? 2 * b->b_cap : 8;
		named_t *nn = realloc(b->b_names, cap * sizeof(*nn));

		if (nn == NULL)
			return -ENOMEM;
		b->b_names = nn;
		b->b_cap = cap;
	}
	n = &b->b_names[b->b_n];
	if ((n->n_name = strdup(name)) == NULL)
		return -ENOMEM;
	n->n_kind = kind;
	n->n_id = btf__find_by_name_kind(b->b_btf, name, (uint32_t)kind);
	if (n->n_id <= 0)
		n->n_id = -ENOENT;
	b->b_n++;
	return n->n_id;
}

/*
 * Member name of struct or union t: its byte offset into *off and its
 * type into *type, looking into anonymous members as C does (mm_struct
 * keeps arg_start in one).
 */
static int member(const struct btf *btf, const struct btf_type *t, const char *name, size_t len,
		  int depth, int64_t *off, uint32_t *type)
{
	const struct btf_member *m = btf_members(t);

	if (depth > 8)
		return -ENOENT;
	for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		int64_t at = btf_member_bit_offset(t, i) / 8;

		if (mn != NULL && strlen(mn) == len && strncmp(mn, name, len) == 0) {
			if (btf_member_bitfield_size(t, i) != 0)
				return -EINVAL;
			*off = at;
			*type = m->type;
			return 0;
		}
		if (mn == NULL || mn[0] == '\0') {
			int id = btf__resolve_type(btf, m->type);
			const struct btf_type *in =
			    id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
			int err;

			if (in == NULL || !btf_is_composite(in))
				continue;
			err = member(btf, in, name, len, depth + 1, off, type);
			if (err == 0)
				*off += at;
			if (err != -ENOENT)
				return err;
		}
	}
	return -ENOENT;
}

/* type with typedefs and qualifiers stripped, or NULL */
static const struct btf_type *resolved(const struct btf *btf, uint32_t type, uint32_t *id)
{
	int r = btf__resolve_type(btf, type);

	if (r <= 0)
		return NULL;
	*id = (uint32_t)r;
	return btf__type_by_id(btf, *id);
}

int ks_btf_member_offset(ks_btf_t *b, const char *sname, const char *path)
{
	const struct btf *btf = b->b_btf;
	const struct btf_type *t;
	const char *p = path;
	int64_t total = 0;
	uint32_t id;
	int sid = find(b, sname, BTF_KIND_STRUCT);

	if (sid < 0)
		return sid;
	id = (uint32_t)sid;
	t = btf__type_by_id(btf, id);
	for (;;) {
		size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		int64_t off;
		uint32_t mt;
		int err;

		if (len == 0 || t == NULL || !btf_is_composite(t))
			return -EINVAL;
		if ((err = member(btf, t, p, len, 0, &off, &mt)) != 0)
			return err;
		total += off;
		p += len;
		t = resolved(btf, mt, &id);
		while (*p == '[') {
			const struct btf_array *a;
			char *end;
			unsigned long ix = strtoul(p + 1, &end, 10);
			int64_t esz;

			if (!isdigit((unsigned char)p[1]) || *end != ']' || t == NULL ||
			    !btf_is_array(t))
				return -EINVAL;
			a = btf_array(t);
			/* nelems 0: a flexible array (pid.numbers[]) */
			if (a->nelems != 0 && ix >= a->nelems)
				return -EINVAL;
			if ((esz = btf__resolve_size(btf, a->type)) < 0 || ix > INT_MAX)
				return -EINVAL;
			total += (int64_t)ix * esz;
			t = resolved(btf, a->type, &id);
			p = end + 1;
		}
		if (total > INT_MAX)
			return -EINVAL;
		if (*p == '\0')
			return (int)total;
		if (*p++ != '.')
			return -EINVAL;
	}
}

int ks_btf_enum_value(ks_btf_t *b, const char *ename, const char *name, int64_t *val)
{
	const struct btf *btf = b->b_btf;
	const struct btf_type *t;
	int id = find(b, ename, BTF_KIND_ENUM);

	if (id == -ENOENT)
		id = find(b, ename, BTF_KIND_ENUM64);
	if (id < 0 || (t = btf__type_by_id(btf, (uint32_t)id)) == NULL)
		return id < 0 ? id : -ENOENT;
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		const char *en;
		int64_t v;

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t) + i;

			en = btf__name_by_offset(btf, e->name_off);
			v = e->val;
		} else {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			en = btf__name_by_offset(btf, e->name_off);
			v = (int64_t)btf_enum64_value(e);
		}
		if (en != NULL && strcmp(en, name) == 0) {
			*val = v;
			return 0;
		}
	}
	return -ENOENT;
}

/* ---------------------------------------------------------------- types, one at a time */

static int enumerator_scan(ks_btf_t *b, const char *name, int64_t *val);

/* id's type with qualifiers (const, volatile, restrict, type tags) skipped; NULL if none */
static const struct btf_type *unqualified(const struct btf *btf, uint32_t *id)
{
	for (int depth = 0; depth < 16; depth++) {
		const struct btf_type *t = btf__type_by_id(btf, *id);

		if (t == NULL)
			return NULL;
		if (!btf_is_mod(t) && !btf_is_type_tag(t))
			return t;
		*id = t->type;
	}
	return NULL;
}

int ks_btf_find(ks_btf_t *b, const char *name, int kind)
{
	int btfkind = kind == KS_BTF_STRUCT    ? BTF_KIND_STRUCT
		      : kind == KS_BTF_UNION   ? BTF_KIND_UNION
		      : kind == KS_BTF_ENUM    ? BTF_KIND_ENUM
		      : kind == KS_BTF_TYPEDEF ? BTF_KIND_TYPEDEF
					       : -1;
	int id;

	if (btfkind < 0)
		return -EINVAL;
	id = find(b, name, btfkind);
	if (id == -ENOENT && kind == KS_BTF_ENUM)
		id = find(b, name, BTF_KIND_ENUM64);
	return id;
}

int ks_btf_type(ks_btf_t *b, uint32_t id, ks_btf_type_t *out)
{
	const struct btf *btf = b->b_btf;
	const struct btf_type *t;

	memset(out, 0, sizeof(*out));
	if (id == 0) {
		out->kind = KS_BTF_VOID;
		return 0;
	}
	if ((t = unqualified(btf, &id)) == NULL)
		return -ENOENT;
	out->id = id;
	out->name = btf__name_by_offset(btf, t->name_off);
	if (out->name != NULL && out->name[0] == '\0')
		out->name = NULL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		uint32_t enc = btf_int_encoding(t);

		out->kind = KS_BTF_INT;
		out->size = t->size;
		out->is_signed = (enc & BTF_INT_SIGNED) != 0;
		out->is_bool = (enc & BTF_INT_BOOL) != 0;
		/* pahole writes char with no encoding: its name says it is char */
		out->is_char = (enc & BTF_INT_CHAR) != 0 ||
			       (out->name != NULL && strcmp(out->name, "char") == 0);
		return 0;
	}
	case BTF_KIND_FLOAT:
		out->kind = KS_BTF_FLOAT;
		out->size = t->size;
		return 0;
	case BTF_KIND_PTR:
		out->kind = KS_BTF_PTR;
		out->size = 8;
		out->ref = t->type;
		return 0;
	case BTF_KIND_ARRAY:
		out->kind = KS_BTF_ARRAY;
		out->ref = btf_array(t)->type;
		out->nelems = btf_array(t)->nelems;
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		out->kind = btf_is_struct(t) ? KS_BTF_STRUCT : KS_BTF_UNION;
		out->size = t->size;
		out->vlen = btf_vlen(t);
		return 0;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		out->kind = KS_BTF_ENUM;
		out->size = t->size;
		out->vlen = btf_vlen(t);
		out->is_signed = btf_kflag(t);
		return 0;
	case BTF_KIND_FWD:
		out->kind = btf_kflag(t) ? KS_BTF_UNION : KS_BTF_STRUCT;
		out->is_fwd = true;
		return 0;
	case BTF_KIND_TYPEDEF:
		out->kind = KS_BTF_TYPEDEF;
		out->ref = t->type;
		return 0;
	case BTF_KIND_FUNC_PROTO: out->kind = KS_BTF_FUNC; return 0;
	default: return -ENOTSUP;
	}
}

int ks_btf_member(ks_btf_t *b, uint32_t id, uint32_t i, ks_btf_member_t *out)
{
	const struct btf *btf = b->b_btf;
	const struct btf_type *t = btf__type_by_id(btf, id);

	memset(out, 0, sizeof(*out));
	if (t == NULL || !btf_is_composite(t) || i >= btf_vlen(t))
		return -EINVAL;
	out->name = btf__name_by_offset(btf, btf_members(t)[i].name_off);
	if (out->name != NULL && out->name[0] == '\0')
		out->name = NULL;
	out->type = btf_members(t)[i].type;
	out->bitoff = btf_member_bit_offset(t, i);
	out->bitsize = btf_member_bitfield_size(t, i);
	return 0;
}

int ks_btf_enumerator(ks_btf_t *b, uint32_t id, uint32_t i, const char **name, int64_t *val)
{
	const struct btf *btf = b->b_btf;
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (t == NULL || !(btf_is_enum(t) || btf_is_enum64(t)) || i >= btf_vlen(t))
		return -EINVAL;
	if (btf_is_enum(t)) {
		*name = btf__name_by_offset(btf, btf_enum(t)[i].name_off);
		*val = btf_kflag(t) ? (int64_t)(int32_t)btf_enum(t)[i].val
				    : (int64_t)(uint32_t)btf_enum(t)[i].val;
	} else {
		*name = btf__name_by_offset(btf, btf_enum64(t)[i].name_off);
		*val = (int64_t)btf_enum64_value(btf_enum64(t) + i);
	}
	return 0;
}

/*
 * The enum holding enumerator name: a scan of every type, once per name
 * (the program's undeclared identifiers only).
 */
int ks_btf_enumerator_find(ks_btf_t *b, const char *name, int64_t *val)
{
	const slot_t *sl = lookup(b, name, -1);
	const char *en;

	if (sl != NULL)
		return ks_btf_enumerator(b, sl->s_id, sl->s_ix, &en, val) == 0 ? (int)sl->s_id
									       : -ENOENT;
	if (b->b_nslots != 0)
		return -ENOENT;
	return enumerator_scan(b, name, val);
}

/* ks_btf_enumerator_find without the index (out of memory for it) */
static int enumerator_scan(ks_btf_t *b, const char *name, int64_t *val)
{
	const struct btf *btf = b->b_btf;
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_enum(t) && !btf_is_enum64(t))
			continue;
		for (uint32_t i = 0; i < btf_vlen(t); i++) {
			const char *en;

			if (ks_btf_enumerator(b, id, i, &en, val) == 0 && en != NULL &&
			    strcmp(en, name) == 0)
				return (int)id;
		}
	}
	return -ENOENT;
}

int ks_btf_id(ks_btf_t *b, const char *name, int kind)
{
	return find(b, name, kind);
}

int ks_btf_funcs(ks_btf_t *b, int (*f)(void *arg, const char *name, uint32_t id), void *arg)
{
	uint32_t n = btf__type_cnt(b->b_btf);

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b->b_btf, id);
		int rc;

		if (t == NULL || !btf_is_func(t))
			continue;
		if ((rc = f(arg, btf__name_by_offset(b->b_btf, t->name_off), id)) != 0)
			return rc;
	}
	return 0;
}

/* libbpf's btf_dump printf callback: fmt is libbpf's own */
__attribute__((format(printf, 2, 0))) static void text_printf(void *ctx, const char *fmt,
							      va_list ap)
{
	ks_btf_t *b = ctx;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || b->b_toom)
		return;
	if (b->b_tlen + (size_t)n + 1 > b->b_tcap) {
		size_t cap = 2 * (b->b_tlen + (size_t)n + 1);
		char *nt = realloc(b->b_text, cap);

		if (nt == NULL) {
			b->b_toom = true;
			return;
		}
		b->b_text = nt;
		b->b_tcap = cap;
	}
	vsnprintf(b->b_text + b->b_tlen, (size_t)n + 1, fmt, ap);
	b->b_tlen += (size_t)n;
}

/* Type id written as C, without a name: malloc'd, or NULL (no memory). */
static char *type_text(ks_btf_t *b, uint32_t id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts, .field_name = "");

	if (b->b_dump == NULL &&
	    (b->b_dump = btf_dump__new(b->b_btf, text_printf, b, NULL)) == NULL)
		return NULL;
	b->b_tlen = 0;
	b->b_toom = false;
	if (btf_dump__emit_type_decl(b->b_dump, id, &opts) != 0 || b->b_toom)
		return NULL;
	return b->b_text != NULL ? strndup(b->b_text, b->b_tlen) : strdup("void");
}

int ks_btf_func_args(ks_btf_t *b, uint32_t id, char **types, int max, char **ret)
{
	const struct btf_type *t = btf__type_by_id(b->b_btf, id);
	const struct btf_param *pa;
	int n;

	if (ret != NULL)
		*ret = NULL;
	if (t == NULL || !btf_is_func(t) || (t = btf__type_by_id(b->b_btf, t->type)) == NULL ||
	    !btf_is_func_proto(t))
		return -EINVAL;
	pa = btf_params(t);
	n = btf_vlen(t);
	if (n > 0 && pa[n - 1].type == 0)
		return -EINVAL; /* ... */
	if (n > max)
		return -E2BIG;
	for (int i = 0; i < n; i++)
		if ((types[i] = type_text(b, pa[i].type)) == NULL) {
			while (i-- > 0)
				free(types[i]);
			return -ENOMEM;
		}
	if (ret != NULL && (*ret = t->type == 0 ? strdup("void") : type_text(b, t->type)) == NULL) {
		for (int i = 0; i < n; i++)
			free(types[i]);
		return -ENOMEM;
	}
	return n;
}
