/*
 * fuzz_lua_json.c -- libFuzzer target for the Lua binding's JSON codec
 * (lu_json.c).  Any input is decoded or refused with a located message and
 * the stack as it was.  What decodes is encoded, decoded, encoded and
 * decoded again: the codec is stable after one round (arrays with holes
 * become objects, floats that are integers become integers), so the last
 * two values must be equal, deeply.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "lu_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool deep_equal(lua_State *L, int a, int b, int depth)
{
	size_t na = 0, nb = 0;
	bool eq = true;

	if (lua_type(L, a) != lua_type(L, b))
		return false;
	if (lua_type(L, a) != LUA_TTABLE)
		return lua_rawequal(L, a, b);
	if (depth > LU_JSON_MAXDEPTH || !lua_checkstack(L, 4))
		abort();
	lua_pushnil(L);
	while (eq && lua_next(L, a) != 0) {
		na++;
		lua_pushvalue(L, -2);
		lua_rawget(L, b);
		eq = deep_equal(L, lua_gettop(L) - 1, lua_gettop(L), depth + 1);
		lua_pop(L, 2);
	}
	if (!eq) {
		lua_pop(L, 1);
		return false;
	}
	lua_pushnil(L);
	while (lua_next(L, b) != 0) {
		nb++;
		lua_pop(L, 1);
	}
	return na == nb;
}

/* Encode the value at idx and decode the text: pushes the value, or returns -1 (inf, nan). */
static int round_trip(lua_State *L, int idx)
{
	lu_buf_t b = { 0 };
	char err[256];

	if (lu_json_encode(L, idx, &b, err, sizeof(err)) != 0) {
		/* 1e999 decodes to inf, which JSON cannot hold; nothing else may fail */
		if (strstr(err, "cannot encode inf") == NULL)
			abort();
		lu_buf_free(&b);
		return -1;
	}
	if (b.len == 0 || b.b[b.len - 1] != '\0' || strlen(b.b) != b.len - 1 ||
	    lu_json_decode(L, b.b, b.len - 1, err, sizeof(err)) != 0)
		abort();
	lu_buf_free(&b);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static lua_State *L;
	char err[128];

	if (L == NULL && (L = luaL_newstate()) == NULL)
		abort();
	lua_settop(L, 0);
	if (lu_json_decode(L, (const char *)data, size, err, sizeof(err)) != 0) {
		if (lua_gettop(L) != 0 || strncmp(err, "json: ", 6) != 0 ||
		    strstr(err, " at byte ") == NULL)
			abort();
		return 0;
	}
	if (lua_gettop(L) != 1)
		abort();
	if (round_trip(L, 1) != 0 || round_trip(L, 2) != 0)
		return 0;
	if (!deep_equal(L, 2, 3, 0))
		abort();
	lua_settop(L, 0);
	return 0;
}
