/*
 * lu_json.c -- the JSON encoder of the Lua binding, for the "json"
 * argument type of probes (and dtrace.json_encode), and the byte buffer
 * the binding's files share.
 *
 * The encoder is recursive with a depth limit, reads tables raw (no
 * metamethod runs, so no Lua code runs while it works) and reports errors
 * by value, so that callers can raise them with context.  It is fuzzed on
 * its own (fuzz_lua_json.c).
 */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu_impl.h"
#include "dt_utf8.h"

int lu_buf_add(lu_buf_t *b, const void *p, size_t n)
{
	if (n > b->cap - b->len) {
		size_t cap = b->cap != 0 ? b->cap : 256;
		char *nb;

		while (cap - b->len < n) {
			if (cap > ((size_t)-1) / 2)
				return -1;
			cap *= 2;
		}
		if ((nb = realloc(b->b, cap)) == NULL)
			return -1;
		b->b = nb;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->b + b->len, p, n);
	b->len += n;
	return 0;
}

void lu_buf_free(lu_buf_t *b)
{
	free(b->b);
	b->b = NULL;
	b->len = b->cap = 0;
}

/* ---------------------------------------------------------------- encoding */

typedef struct {
	lua_State *L;
	lu_buf_t *out;
	char *err;
	size_t errsz;
	int depth;
	const void *seen[LU_JSON_MAXDEPTH]; /* the tables being encoded, outermost first */
	char path[192];			    /* where we are: "$.a[2]" */
	size_t plen;
} enc_t;

static int efail(enc_t *e, const char *what)
{
	snprintf(e->err, e->errsz, "json: %s at %s", what, e->path);
	return -1;
}

static int put(enc_t *e, const char *s, size_t n)
{
	if (lu_buf_add(e->out, s, n) != 0)
		return efail(e, "out of memory");
	return 0;
}

static int puts_(enc_t *e, const char *s)
{
	return put(e, s, strlen(s));
}

/* A finite float in the fewest digits that read back to it, with '.' whatever the locale. */
static void fmt_float(char *buf, size_t sz, double v)
{
	const char *dp = localeconv()->decimal_point;

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sz, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	for (char *c = buf; *c != '\0'; c++)
		if (*c == dp[0] && *c != '.')
			*c = '.';
}

static int put_float(enc_t *e, double v)
{
	char buf[40];

	if (!isfinite(v))
		return efail(e, isnan(v) ? "cannot encode nan" : "cannot encode inf");
	fmt_float(buf, sizeof(buf), v);
	return puts_(e, buf);
}

static int put_arg(void *e, const char *p, size_t len)
{
	return put(e, p, len);
}

/* A JSON string, escaped as libdtrace writes them. */
static int put_string(enc_t *e, const char *s, size_t n)
{
	if (put(e, "\"", 1) != 0 || dt_json_escape(s, n, put_arg, e) != 0)
		return -1;
	return put(e, "\"", 1);
}

/* Add a segment to the path (cut when long: it is only for messages); returns the old length. */
static size_t path_push(enc_t *e, const char *seg)
{
	size_t old = e->plen, room = sizeof(e->path) - e->plen;
	int n = snprintf(e->path + e->plen, room, "%s", seg);

	e->plen = n < 0 ? old : (size_t)n >= room ? sizeof(e->path) - 1 : e->plen + (size_t)n;
	return old;
}

static void path_pop(enc_t *e, size_t old)
{
	e->plen = old;
	e->path[old] = '\0';
}

static int encode(enc_t *e, int idx);

/* How to write the table at idx: 1 array (of *n), 0 object. */
static int table_kind(enc_t *e, int idx, lua_Integer *n)
{
	lua_Integer count = 0, max = 0;
	const char *kind = NULL;

	if (luaL_getmetafield(e->L, idx, "__jsontype") != LUA_TNIL) {
		kind = lua_tostring(e->L, -1);
		lua_pop(e->L, 1);
	}
	if (kind != NULL && strcmp(kind, "array") == 0) {
		*n = (lua_Integer)lua_rawlen(e->L, idx);
		return 1;
	}
	if (kind != NULL && strcmp(kind, "object") == 0)
		return 0;
	lua_pushnil(e->L);
	while (lua_next(e->L, idx) != 0) {
		lua_Integer k;

		lua_pop(e->L, 1);
		if (!lua_isinteger(e->L, -1) || (k = lua_tointeger(e->L, -1)) < 1) {
			lua_pop(e->L, 1);
			return 0;
		}
		count++;
		if (k > max)
			max = k;
	}
	*n = count;
	return count > 0 && max == count;
}

static int encode_table(enc_t *e, int idx)
{
	const void *t = lua_topointer(e->L, idx);
	char seg[80];
	lua_Integer n;
	bool first = true;
	size_t old;

	for (int i = 0; i < e->depth; i++)
		if (e->seen[i] == t)
			return efail(e, "cycle");
	if (e->depth >= LU_JSON_MAXDEPTH)
		return efail(e, "nesting too deep");
	if (!lua_checkstack(e->L, 4))
		return efail(e, "out of Lua stack");
	e->seen[e->depth++] = t;
	if (table_kind(e, idx, &n)) {
		if (put(e, "[", 1) != 0)
			return -1;
		for (lua_Integer i = 1; i <= n; i++) {
			if (i > 1 && put(e, ",", 1) != 0)
				return -1;
			lua_rawgeti(e->L, idx, i);
			snprintf(seg, sizeof(seg), "[%lld]", (long long)i);
			old = path_push(e, seg);
			if (encode(e, lua_gettop(e->L)) != 0)
				return -1;
			path_pop(e, old);
			lua_pop(e->L, 1);
		}
		e->depth--;
		return put(e, "]", 1);
	}
	if (put(e, "{", 1) != 0)
		return -1;
	lua_pushnil(e->L);
	while (lua_next(e->L, idx) != 0) {
		char num[48];
		const char *k;
		size_t klen;

		if (!first && put(e, ",", 1) != 0)
			return -1;
		first = false;
		/* number keys are formatted here: lua_tolstring would change the key under lua_next */
		switch (lua_type(e->L, -2)) {
		case LUA_TSTRING:
			k = lua_tolstring(e->L, -2, &klen);
			snprintf(seg, sizeof(seg), ".%s", k);
			old = path_push(e, seg);
			break;
		case LUA_TNUMBER:
			if (lua_isinteger(e->L, -2))
				snprintf(num, sizeof(num), "%lld",
					 (long long)lua_tointeger(e->L, -2));
			else if (isfinite(lua_tonumber(e->L, -2)))
				fmt_float(num, sizeof(num), (double)lua_tonumber(e->L, -2));
			else
				return efail(e, "cannot encode a key that is not finite");
			k = num;
			klen = strlen(num);
			snprintf(seg, sizeof(seg), "[%s]", k);
			old = path_push(e, seg);
			break;
		default:
			snprintf(num, sizeof(num), "cannot encode a %s key",
				 luaL_typename(e->L, -2));
			return efail(e, num);
		}
		if (put_string(e, k, klen) != 0 || put(e, ":", 1) != 0 ||
		    encode(e, lua_gettop(e->L)) != 0)
			return -1;
		path_pop(e, old);
		lua_pop(e->L, 1);
	}
	e->depth--;
	return put(e, "}", 1);
}

static int encode(enc_t *e, int idx)
{
	char buf[48];
	const char *s;
	size_t n;

	switch (lua_type(e->L, idx)) {
	case LUA_TNIL: return puts_(e, "null");
	case LUA_TBOOLEAN: return puts_(e, lua_toboolean(e->L, idx) ? "true" : "false");
	case LUA_TNUMBER:
		if (!lua_isinteger(e->L, idx))
			return put_float(e, lua_tonumber(e->L, idx));
		snprintf(buf, sizeof(buf), "%lld", (long long)lua_tointeger(e->L, idx));
		return puts_(e, buf);
	case LUA_TSTRING: s = lua_tolstring(e->L, idx, &n); return put_string(e, s, n);
	case LUA_TTABLE: return encode_table(e, idx);
	default:
		snprintf(buf, sizeof(buf), "cannot encode a %s", luaL_typename(e->L, idx));
		return efail(e, buf);
	}
}

int lu_json_encode(lua_State *L, int idx, lu_buf_t *out, char *err, size_t errsz)
{
	enc_t e = { .L = L, .out = out, .err = err, .errsz = errsz, .path = "$", .plen = 1 };
	int top = lua_gettop(L);
	int rc = encode(&e, lua_absindex(L, idx));

	lua_settop(L, top);
	if (rc == 0 && lu_buf_add(out, "", 1) != 0)
		rc = efail(&e, "out of memory");
	return rc;
}
