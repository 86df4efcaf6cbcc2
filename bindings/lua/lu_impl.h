/*
 * lu_impl.h -- internals shared by the files of the Lua binding:
 * lu_usdt.c (providers, probes, the runtime provider, luaopen_dtrace),
 * lu_consumer.c (D programs over libdtrace) and lu_json.c (the JSON encoder
 * of json-typed probe arguments, also linked alone into the fuzzer).
 */
#ifndef LU_IMPL_H
#define LU_IMPL_H

#include <stddef.h>

#include <lauxlib.h>
#include <lua.h>

/* A growing byte buffer on the C heap; {0} is empty.  Owned by its holder. */
typedef struct lu_buf {
	char *b;
	size_t len, cap;
} lu_buf_t;

/* Append n bytes; 0, or -1 when out of memory (b unchanged). */
int lu_buf_add(lu_buf_t *b, const void *p, size_t n);
void lu_buf_free(lu_buf_t *b);

/* Nesting limit of the encoder. */
#define LU_JSON_MAXDEPTH 128

/*
 * Append the JSON text of the value at idx to out, then a NUL.  Tables are
 * arrays when their keys are exactly 1..n (n > 0) or their metatable has
 * __jsontype = "array", else objects (keys: strings and numbers); read raw
 * (no metamethods).  Returns 0, or -1 with a message in err naming where
 * ("cycle at $.a[2]"); out may then hold a partial text.
 */
int lu_json_encode(lua_State *L, int idx, lu_buf_t *out, char *err, size_t errsz);

/* Add dtrace.consumer to the module table on the top of the stack. */
void lu_consumer_register(lua_State *L);

#endif /* LU_IMPL_H */
