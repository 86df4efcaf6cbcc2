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

struct ks_btf {
	struct btf *b_btf;
	named_t *b_names;
	size_t b_n, b_cap;
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
	btf_dump__free(b->b_dump);
	free(b->b_text);
	btf__free(b->b_btf);
	free(b);
}

/* A type's id by name and kind, each (name, kind) scanned for once; or a negative errno. */
static int find(ks_btf_t *b, const char *name, int kind)
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

static void text_printf(void *ctx, const char *fmt, va_list ap)
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
