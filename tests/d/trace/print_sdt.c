/*
 * print_sdt: fires ps:::one(&t) through <sys/sdt.h> with a struct of known
 * values (run.print_struct.d's layout), then ps:::zero(&z) with one whose
 * members are mostly zero and a char array that starts with a NUL.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/sdt.h>

enum eh { FIRSTVAL = 0, SECONDVAL = 1, THIRDVAL = 3 };

struct test_struct {
	int a;
	char b[5];
	union {
		uint8_t c;
		uint64_t d;
	} u;
	struct {
		void *e;
		uint64_t f;
	} s;
	bool g;
	enum eh h;
	short neg;
	int arr[4];
};

int main(void)
{
	static struct test_struct t, z;

	t.a = 1;
	memcpy(t.b, "test", 5);
	t.u.d = 123456789;
	t.s.e = (void *)0xffff9b7aca7e0000ULL;
	t.s.f = 987654321;
	t.g = true;
	t.h = SECONDVAL;
	t.neg = -3;
	t.arr[1] = 7;
	t.arr[3] = -1;
	memcpy(z.b, "\0est", 5);
	z.g = true;
	z.h = 2; /* no name */
	DTRACE_PROBE1(ps, one, &t);
	DTRACE_PROBE1(ps, zero, &z);
	return 0;
}
