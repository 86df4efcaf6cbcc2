/*
 * usym: fires usym:::ptr(pc, pc + 1, malloc) N times (argv[1]) from two
 * call sites, pc being work2()'s address, for run.usym.d's ufunc(),
 * usym(), uaddr() and umod().
 */
#include <stdlib.h>
#include <sys/sdt.h>

__attribute__((noinline)) int work2(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 7 + 3;
}

__attribute__((noinline)) static void fire(int (*f)(int), int site, void *m)
{
	if (site == 0)
		DTRACE_PROBE3(usym, ptr, f, (char *)f + 1, m);
	else
		DTRACE_PROBE3(usym, ptr, f, (char *)f + 2, m);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	void *volatile m = (void *)malloc;

	for (int i = 0; i < n; i++)
		fire(work2, i % 2, m);
	return work2(n) == 0;
}
