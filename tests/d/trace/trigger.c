/*
 * trigger N: fires trig:::tick(i, name, i*i) for i in 0..N-1 (names cycle
 * through "alpha", "beta", "gamma"), then trig:::neg(-5, -2, 200), then
 * trig:::sys(r) after close(-1) fails with EBADF and again after getppid()
 * succeeds, then trig:::done(N).  It reads its strings first: a probe reads only what is
 * resident (BPF cannot fault a page in), so copyinstr() of a string the
 * program never touched is an invalid address, in DTrace too.
 */
#include <stdlib.h>
#include <unistd.h>

#include "trigger.h"

int main(int argc, char **argv)
{
	static const char *const names[] = { "alpha", "beta", "gamma" };
	int n = argc > 1 ? atoi(argv[1]) : 3;

	volatile size_t touched = 0;

	/* probe context cannot fault pages in: the strings must be resident */
	for (int i = 0; i < 3; i++)
		for (const volatile char *p = names[i]; *p != '\0'; p++)
			touched += (size_t)*p;
	for (int i = 0; i < n; i++)
		TRIG_TICK(i, names[i % 3], (long)i * i);
	TRIG_NEG(-5, -2, 200);
	TRIG_SYS(close(-1)); /* errno EBADF */
	TRIG_SYS(getppid() > 0 ? 0 : -1); /* errno 0 again */
	TRIG_DONE(n);
	return 0;
}
