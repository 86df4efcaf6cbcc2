/*
 * ripargs: systemtap's <sys/sdt.h> (its "nor" constraints let gcc pass a
 * global in memory) fires rip:::glob(counter, stats.b) three times; gcc -O2
 * writes the operands as symbols relative to %rip, "-4@counter(%rip)
 * -8@8+stats(%rip)" (build_ripargs.sh checks that it did).
 */
#include <sys/sdt.h>

int counter = 7;
struct {
	long a, b;
} stats = { 11, 42 };

__attribute__((noinline)) void bump(void)
{
	counter++;
	stats.b += 2;
}

int main(void)
{
	for (int i = 0; i < 3; i++) {
		DTRACE_PROBE2(rip, glob, counter, stats.b);
		bump();
	}
	return 0;
}
