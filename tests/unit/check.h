/*
 * check.h -- the unit tests' assertions: each failure prints where and
 * what, and the program exits non-zero if any failed.  main() ends with
 * CHECK_DONE(), which prints "N passed, N failed".
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (cond) {                                                                      \
			check_passed++;                                                          \
		} else {                                                                         \
			check_failed++;                                                          \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                                \
	} while (0)

#define CHECK_INT(got, want)                                                                      \
	do {                                                                                      \
		long long g_ = (long long)(got), w_ = (long long)(want);                          \
		if (g_ == w_) {                                                                   \
			check_passed++;                                                           \
		} else {                                                                          \
			check_failed++;                                                           \
			fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, \
				#got, g_, w_);                                                    \
		}                                                                                 \
	} while (0)

#define CHECK_STR(got, want)                                                                \
	do {                                                                                \
		const char *g_ = (got), *w_ = (want);                                       \
		if (g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0) {                      \
			check_passed++;                                                     \
		} else {                                                                    \
			check_failed++;                                                     \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, \
				__LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");    \
		}                                                                           \
	} while (0)

/* Append the formatted line to (*lines)[*n] (a test's log of what callbacks saw; NULL: no memory). */
static inline void check_vaddline(char ***lines, size_t *n, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static inline void check_vaddline(char ***lines, size_t *n, const char *fmt, va_list ap)
{
	va_list again;
	int len;
	char *s = NULL;

	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	if (len >= 0 && (s = malloc((size_t)len + 1)) != NULL)
		vsnprintf(s, (size_t)len + 1, fmt, again);
	va_end(again);
	*lines = realloc(*lines, (*n + 1) * sizeof(**lines));
	(*lines)[(*n)++] = s;
}

static inline void check_freelines(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

#define CHECK_DONE()                                                   \
	(printf("%d passed, %d failed\n", check_passed, check_failed), \
	 check_failed != 0 || check_passed == 0)

#endif
