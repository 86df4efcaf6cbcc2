/*
 * lu_json.c -- the JSON codec of the Lua binding: a strict decoder for the
 * JSON Lines libdtrace writes with oformat=json (docs/json.md), and an
 * encoder for the "json" argument type of probes.
 *
 * Both are recursive with a depth limit, read tables raw (no metamethod
 * runs, so no Lua code runs while they work) and report errors by value,
 * so that callers can raise them with context.  The decoder is fuzzed on
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

/* ---------------------------------------------------------------- decoding */

typedef struct {
	lua_State *L;
	const char *s, *p, *end;
	char *err;
	size_t errsz;
	int depth;
} dec_t;

static int dfail(dec_t *d, const char *what)
{
	snprintf(d->err, d->errsz, "json: %s at byte %zu", what, (size_t)(d->p - d->s));
	return -1;
}

static void blanks(dec_t *d)
{
	while (d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r'))
		d->p++;
}

static bool digit(const dec_t *d, const char *q)
{
	return q < d->end && *q >= '0' && *q <= '9';
}

/* RFC 8259's grammar; then Lua's own conversion: exact integers, else a float. */
static int number(dec_t *d)
{
	const char *q = d->p;
	char small[64];
	size_t len;
	int ok;

	if (q < d->end && *q == '-')
		q++;
	if (!digit(d, q))
		return dfail(d, "invalid number");
	if (*q == '0')
		q++;
	else
		while (digit(d, q))
			q++;
	if (q < d->end && *q == '.') {
		if (!digit(d, ++q))
			return dfail(d, "invalid number");
		while (digit(d, q))
			q++;
	}
	if (q < d->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < d->end && (*q == '+' || *q == '-'))
			q++;
		if (!digit(d, q))
			return dfail(d, "invalid number");
		while (digit(d, q))
			q++;
	}
	len = (size_t)(q - d->p);
	if (len < sizeof(small)) {
		memcpy(small, d->p, len);
		small[len] = '\0';
		ok = lua_stringtonumber(d->L, small) != 0;
	} else {
		lua_pushlstring(d->L, d->p, len);
		ok = lua_stringtonumber(d->L, lua_tostring(d->L, -1)) != 0;
		if (ok)
			lua_remove(d->L, -2);
	}
	if (!ok)
		return dfail(d, "invalid number");
	d->p = q;
	return 0;
}

static int hex4(dec_t *d, unsigned *out)
{
	unsigned v = 0;

	if (d->end - d->p < 4)
		return dfail(d, "truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = d->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return dfail(d, "invalid \\u escape");
	}
	d->p += 4;
	*out = v;
	return 0;
}

/* After "\u": one code point (a surrogate pair is two escapes) into b. */
static int unicode(dec_t *d, luaL_Buffer *b)
{
	unsigned cp, lo;
	char u[4];

	if (hex4(d, &cp) != 0)
		return -1;
	if (cp < 0x100) { /* \u0080..\u00ff: a byte that is not UTF-8, as libdtrace writes it */
		luaL_addchar(b, (char)cp);
		return 0;
	}
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return dfail(d, "lone low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (d->end - d->p < 2 || d->p[0] != '\\' || d->p[1] != 'u')
			return dfail(d, "lone high surrogate");
		d->p += 2;
		if (hex4(d, &lo) != 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return dfail(d, "invalid surrogate pair");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		luaL_addlstring(b, u, 4);
		return 0;
	}
	if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		luaL_addlstring(b, u, 2);
		return 0;
	}
	u[0] = (char)(0xe0 | cp >> 12);
	u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
	u[2] = (char)(0x80 | (cp & 0x3f));
	luaL_addlstring(b, u, 3);
	return 0;
}

static int string(dec_t *d)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	luaL_Buffer b;

	d->p++;
	luaL_buffinit(d->L, &b);
	for (;;) {
		const unsigned char *u = (const unsigned char *)d->p;
		const char *e;
		size_t len;

		if (d->p >= d->end)
			return dfail(d, "unterminated string");
		if (*u == '"') {
			d->p++;
			luaL_pushresult(&b);
			return 0;
		}
		if (*u == '\\') {
			if (++d->p >= d->end)
				return dfail(d, "unterminated string");
			if (*d->p == 'u') {
				d->p++;
				if (unicode(d, &b) != 0)
					return -1;
				continue;
			}
			if (*d->p == '\0' || (e = strchr(esc_in, *d->p)) == NULL)
				return dfail(d, "invalid escape");
			luaL_addchar(&b, esc_out[e - esc_in]);
			d->p++;
			continue;
		}
		if (*u < 0x20)
			return dfail(d, "control character in string");
		if (*u < 0x80) { /* a run of plain ASCII */
			len = 1;
			while (d->p + len < d->end && u[len] >= 0x20 && u[len] < 0x80 &&
			       u[len] != '"' && u[len] != '\\')
				len++;
		} else if ((len = dt_utf8_len(u, (size_t)(d->end - d->p))) == 0) {
			return dfail(d, "invalid UTF-8 in string");
		}
		luaL_addlstring(&b, d->p, len);
		d->p += len;
	}
}

static int value(dec_t *d);

static int array(dec_t *d)
{
	lua_Integer i = 0;

	d->p++;
	lua_newtable(d->L);
	blanks(d);
	if (d->p < d->end && *d->p == ']') {
		d->p++;
		return 0;
	}
	for (;;) {
		if (value(d) != 0)
			return -1;
		lua_rawseti(d->L, -2, ++i); /* null: a hole */
		blanks(d);
		if (d->p < d->end && *d->p == ',') {
			d->p++;
			continue;
		}
		if (d->p < d->end && *d->p == ']') {
			d->p++;
			return 0;
		}
		return dfail(d, "expected ',' or ']'");
	}
}

static int object(dec_t *d)
{
	d->p++;
	lua_newtable(d->L);
	blanks(d);
	if (d->p < d->end && *d->p == '}') {
		d->p++;
		return 0;
	}
	for (;;) {
		blanks(d);
		if (d->p >= d->end || *d->p != '"')
			return dfail(d, "expected a string key");
		if (string(d) != 0)
			return -1;
		blanks(d);
		if (d->p >= d->end || *d->p != ':')
			return dfail(d, "expected ':'");
		d->p++;
		if (value(d) != 0)
			return -1;
		lua_rawset(d->L, -3); /* null: no field */
		blanks(d);
		if (d->p < d->end && *d->p == ',') {
			d->p++;
			continue;
		}
		if (d->p < d->end && *d->p == '}') {
			d->p++;
			return 0;
		}
		return dfail(d, "expected ',' or '}'");
	}
}

static int literal(dec_t *d, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(d->end - d->p) < n || memcmp(d->p, word, n) != 0)
		return dfail(d, "invalid literal");
	d->p += n;
	return 0;
}

static int value(dec_t *d)
{
	int rc;

	blanks(d);
	if (d->p >= d->end)
		return dfail(d, "unexpected end");
	if (d->depth >= LU_JSON_MAXDEPTH)
		return dfail(d, "nesting too deep");
	if (!lua_checkstack(d->L, 4))
		return dfail(d, "out of Lua stack");
	d->depth++;
	switch (*d->p) {
	case '{': rc = object(d); break;
	case '[': rc = array(d); break;
	case '"': rc = string(d); break;
	case 't':
		if ((rc = literal(d, "true")) == 0)
			lua_pushboolean(d->L, 1);
		break;
	case 'f':
		if ((rc = literal(d, "false")) == 0)
			lua_pushboolean(d->L, 0);
		break;
	case 'n':
		if ((rc = literal(d, "null")) == 0)
			lua_pushnil(d->L);
		break;
	default:
		if (*d->p == '-' || (*d->p >= '0' && *d->p <= '9'))
			rc = number(d);
		else
			rc = dfail(d, "unexpected character");
		break;
	}
	d->depth--;
	return rc;
}

int lu_json_decode(lua_State *L, const char *s, size_t n, char *err, size_t errsz)
{
	dec_t d = { .L = L, .s = s, .p = s, .end = s + n, .err = err, .errsz = errsz };
	int top = lua_gettop(L);

	if (value(&d) == 0) {
		blanks(&d);
		if (d.p == d.end)
			return 0;
		dfail(&d, "trailing characters");
	}
	lua_settop(L, top);
	return -1;
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
