/*
 * dt_utf8.h -- the project's one UTF-8 check and JSON string escape,
 * header-only so that the Lua binding's JSON codec (which need not link
 * libdtrace) shares them with libdtrace's JSON output.
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

/*
 * The n bytes at s as the inside of a JSON string, through put (which
 * returns non-zero to stop; so does this): UTF-8 as it is, '"', '\\', \n,
 * \r, \t escaped, and controls, DEL and bytes that are not UTF-8 as \u00XX.
 */
static inline int dt_json_escape(const char *s, size_t n,
				 int (*put)(void *arg, const char *p, size_t len), void *arg)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run, len;
	char esc[8];

	while (i < n) {
		/* runs of what needs no escape, in one put */
		for (run = i;
		     run < n && u[run] >= 0x20 && u[run] < 0x7f && u[run] != '"' && u[run] != '\\';
		     run++)
			;
		if (run > i && put(arg, s + i, run - i) != 0)
			return -1;
		if ((i = run) >= n)
			break;
		if (u[i] >= 0x80 && (len = dt_utf8_len(u + i, n - i)) != 0) {
			if (put(arg, s + i, len) != 0)
				return -1;
			i += len;
			continue;
		}
		switch (u[i]) {
		case '"': esc[0] = '\\', esc[1] = '"', len = 2; break;
		case '\\': esc[0] = '\\', esc[1] = '\\', len = 2; break;
		case '\n': esc[0] = '\\', esc[1] = 'n', len = 2; break;
		case '\r': esc[0] = '\\', esc[1] = 'r', len = 2; break;
		case '\t': esc[0] = '\\', esc[1] = 't', len = 2; break;
		default:
			len = 6;
			esc[0] = '\\', esc[1] = 'u', esc[2] = '0', esc[3] = '0';
			esc[4] = "0123456789abcdef"[u[i] >> 4];
			esc[5] = "0123456789abcdef"[u[i] & 0xf];
		}
		if (put(arg, esc, len) != 0)
			return -1;
		i++;
	}
	return 0;
}

#endif /* DT_UTF8_H */
