/*
 * xlargs: fires xl:::q(&in, i) N times (argv[1]) with in = { i * 10, i + 100 },
 * for run.xlargs.d's translated args[].
 */
#include <stdlib.h>
#include <sys/sdt.h>

struct in {
	int a;
	int len;
};

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < n; i++) {
		struct in in = { i * 10, i + 100 };

		DTRACE_PROBE2(xl, q, &in, i);
		__asm__ volatile("" : : "r"(&in) : "memory");
	}
	return 0;
}
