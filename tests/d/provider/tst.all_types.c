/*
 * Fires every probe of tst.all_types.d, so that run_golden.py can check the
 * sizes and signs of the argument specifications that reach the notes.
 */
#include "tst.all_types.h"

struct conn {
	int fd;
};
union u {
	int i;
};
enum color { RED, GREEN };

void fire_all(struct conn *c, union u *u, const char *s, int n);
void fire_all(struct conn *c, union u *u, const char *s, int n)
{
	char buf[8] = "x";
	int *ip = &n;

	ALLTYPES_NONE();
	ALLTYPES_EMPTY();
	ALLTYPES_CHARS((char)n, (signed char)n, (unsigned char)n, n != 0);
	ALLTYPES_SHORTS((short)n, (unsigned short)n, (short)-n, (unsigned short)-n);
	ALLTYPES_INTS(n, (unsigned)n, -n, 2u * (unsigned)n, n + 1);
	ALLTYPES_LONGS((long)n, (unsigned long)n, (long long)n, (unsigned long long)n, -(long)n);
	ALLTYPES_STDINTS((int8_t)n, (int16_t)n, (int32_t)n, (int64_t)n, (uint8_t)n, (uint16_t)n,
			 (uint32_t)n, (uint64_t)n);
	ALLTYPES_SYSTYPES((size_t)n, (ssize_t)n, (pid_t)n, (uid_t)n, (gid_t)n, (off_t)n,
			  (uintptr_t)n, (intptr_t)n);
	ALLTYPES_SOLARIS((unsigned char)n, (unsigned short)n, (unsigned)n, (unsigned long)n,
			 (long long)n, (unsigned long long)n, (long long)n);
	ALLTYPES_PTRS(buf, s, buf, s, &ip, c, u);
	ALLTYPES_STRINGS(s, buf);
	ALLTYPES_FLOATS(0.5 * n, 0.25f * (float)n);
	ALLTYPES_NAMED(n, s, c, (unsigned long long)n);
	ALLTYPES_ENUMS(n ? GREEN : RED);
	ALLTYPES_TWELVE(n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7, n + 8, n + 9, n + 10,
			n + 11);
	ALLTYPES_TRANSLATED(c, n);
	ALLTYPES_MERGED_LATER(n);
	SECOND_START();
}
