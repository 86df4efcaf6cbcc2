/*
 * fuzz_lua_json.c -- libFuzzer target for the Lua binding's JSON encoder
 * (lu_json.c, the "json" argument type of probes).  The input is read as
 * a recipe for a Lua value (nil, booleans, integers, floats, strings of
 * any bytes, arrays and objects nested, a table holding itself); the value
 * is encoded.  The encoder must succeed with one NUL-terminated text of
 * valid UTF-8 and balanced brackets, or fail with a located message
 * (only for what JSON cannot hold: a cycle, inf or nan, too deep).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "lu_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
	const uint8_t *p, *end;
} input_t;

static unsigned byte(input_t *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

static void take(input_t *in, void *out, size_t n)
{
	size_t have = (size_t)(in->end - in->p) < n ? (size_t)(in->end - in->p) : n;

	memset(out, 0, n);
	memcpy(out, in->p, have);
	in->p += have;
}

/* Push a value made from the input; parent is the index of the enclosing table, or 0. */
static void make(lua_State *L, input_t *in, int depth, int parent)
{
	unsigned op = byte(in) % 9, n;
	lua_Integer i;
	double d;
	char s[256];

	if (!lua_checkstack(L, 4))
		abort();
	if (depth > LU_JSON_MAXDEPTH + 8 && op >= 5)
		op = 0;
	switch (op) {
	case 0: lua_pushnil(L); return;
	case 1: lua_pushboolean(L, (int)(byte(in) & 1)); return;
	case 2:
		take(in, &i, sizeof(i));
		lua_pushinteger(L, i);
		return;
	case 3:
		take(in, &d, sizeof(d));
		lua_pushnumber(L, d);
		return;
	case 4:
		n = byte(in);
		take(in, s, n);
		lua_pushlstring(L, s, n);
		return;
	case 5: /* an array */
	case 6: /* an array with a hole, or an object of integer keys */
		n = byte(in) % 8;
		lua_createtable(L, (int)n, 0);
		for (unsigned k = 1; k <= n; k++) {
			make(L, in, depth + 1, lua_gettop(L));
			lua_rawseti(L, -2, op == 5 ? (lua_Integer)k : (lua_Integer)(2 * k));
		}
		return;
	case 7: /* an object */
		n = byte(in) % 8;
		lua_createtable(L, 0, (int)n);
		for (unsigned k = 0; k < n; k++) {
			unsigned len = byte(in) % 16;

			take(in, s, len);
			lua_pushlstring(L, s, len);
			make(L, in, depth + 1, lua_gettop(L) - 1);
			lua_rawset(L, -3);
		}
		return;
	default: /* the enclosing table: a cycle */
		if (parent > 0)
			lua_pushvalue(L, parent);
		else
			lua_pushinteger(L, 0);
		return;
	}
}

/* Is s[0..n) valid UTF-8 (no overlong forms, no surrogates) with balanced brackets? */
static bool well_formed(const unsigned char *s, size_t n)
{
	long depth = 0;
	bool in_str = false;

	for (size_t i = 0; i < n;) {
		unsigned c = s[i], len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
		uint32_t cp;

		if ((c >= 0x80 && c < 0xc2) || c > 0xf4 || i + len > n)
			return false;
		cp = len == 1 ? c : c & (0x7f >> len);
		for (unsigned k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0x20)
			return false;
		if (in_str && c == '\\')
			i++;
		else if (c == '"')
			in_str = !in_str;
		else if (!in_str && (c == '[' || c == '{'))
			depth++;
		else if (!in_str && (c == ']' || c == '}') && --depth < 0)
			return false;
		i += len;
	}
	return depth == 0 && !in_str;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static lua_State *L;
	input_t in = { data, data + size };
	lu_buf_t b = { 0 };
	char err[256];

	if (L == NULL && (L = luaL_newstate()) == NULL)
		abort();
	lua_settop(L, 0);
	make(L, &in, 0, 0);
	if (lu_json_encode(L, 1, &b, err, sizeof(err)) != 0) {
		if (strncmp(err, "json: ", 6) != 0 || strstr(err, " at $") == NULL ||
		    (strstr(err, "cycle") == NULL && strstr(err, "cannot encode inf") == NULL &&
		     strstr(err, "cannot encode nan") == NULL && strstr(err, "too deep") == NULL &&
		     strstr(err, "out of Lua stack") == NULL))
			abort();
	} else if (b.len == 0 || b.b[b.len - 1] != '\0' || strlen(b.b) != b.len - 1 ||
		   !well_formed((const unsigned char *)b.b, b.len - 1)) {
		abort();
	}
	lu_buf_free(&b);
	lua_settop(L, 0);
	return 0;
}
