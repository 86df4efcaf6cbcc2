/*
 * dt_utf8.h -- the one UTF-8 check of the project, header-only so that the
 * Lua binding's JSON codec (which need not link libdtrace) shares it with
 * libdtrace's JSON output.
 */
#ifndef DT_UTF8_H
#define DT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The length of the valid UTF-8 sequence at s (n > 0 bytes left), or 0:
 * overlong forms, surrogates and code points past U+10FFFF are invalid.
 */
static inline size_t dt_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

#endif /* DT_UTF8_H */
