/*
 * dt_strset.c -- a set of strings, each with a value, in an arena: open
 * addressing, doubling, so that name checks stay linear in the number of
 * names (a provider file may declare thousands of probes).
 */
#include <string.h>

#include "dt_impl.h"

struct dt_strset {
	dt_arena_t *ss_arena;
	size_t ss_cap, ss_n; /* cap: a power of two */
	const char **ss_keys;
	const void **ss_vals;
};

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

dt_strset_t *dt_strset_create(dt_arena_t *a)
{
	dt_strset_t *ss = dt_arena_alloc(a, sizeof(*ss));

	if (ss == NULL)
		return NULL;
	ss->ss_arena = a;
	ss->ss_cap = 64;
	ss->ss_keys = dt_arena_alloc(a, sizeof(char *) * ss->ss_cap);
	ss->ss_vals = dt_arena_alloc(a, sizeof(void *) * ss->ss_cap);
	return ss->ss_keys != NULL && ss->ss_vals != NULL ? ss : NULL;
}

static size_t slot(const dt_strset_t *ss, const char *key)
{
	size_t i = hash(key) & (ss->ss_cap - 1);

	while (ss->ss_keys[i] != NULL && strcmp(ss->ss_keys[i], key) != 0)
		i = (i + 1) & (ss->ss_cap - 1);
	return i;
}

int dt_strset_add(dt_strset_t *ss, const char *key, const void *val, const void **oldp)
{
	size_t i = slot(ss, key);

	if (ss->ss_keys[i] != NULL) {
		if (oldp != NULL)
			*oldp = ss->ss_vals[i];
		return 0;
	}
	if ((ss->ss_n + 1) * 2 > ss->ss_cap) {
		size_t ocap = ss->ss_cap;
		const char **ok = ss->ss_keys;
		const void **ov = ss->ss_vals;

		ss->ss_cap *= 2;
		ss->ss_keys = dt_arena_alloc(ss->ss_arena, sizeof(char *) * ss->ss_cap);
		ss->ss_vals = dt_arena_alloc(ss->ss_arena, sizeof(void *) * ss->ss_cap);
		if (ss->ss_keys == NULL || ss->ss_vals == NULL)
			return -1;
		for (size_t k = 0; k < ocap; k++) {
			if (ok[k] != NULL) {
				size_t j = slot(ss, ok[k]);

				ss->ss_keys[j] = ok[k];
				ss->ss_vals[j] = ov[k];
			}
		}
		i = slot(ss, key);
	}
	ss->ss_keys[i] = key;
	ss->ss_vals[i] = val;
	ss->ss_n++;
	return 1;
}

const void *dt_strset_get(const dt_strset_t *ss, const char *key)
{
	size_t i = slot(ss, key);

	return ss->ss_keys[i] != NULL ? ss->ss_vals[i] : NULL;
}

int dt_strset_put(dt_strset_t *ss, const char *key, const void *val)
{
	int rc = dt_strset_add(ss, key, val, NULL);

	if (rc == 0) /* it was there: replace its value */
		ss->ss_vals[slot(ss, key)] = val;
	return rc < 0 ? -1 : 0;
}
