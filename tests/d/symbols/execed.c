/*
 * execed: what execer's child execs: write(-1, after_exec, 1) (it fails:
 * EBADF) with its own function's address, then lives a second more, so
 * that its mappings are there to read, for run.exec.d.
 */
#include <unistd.h>

__attribute__((noinline)) static int after_exec(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 5;
}

int main(void)
{
	int (*volatile f)(int) = after_exec;

	if (write(-1, (const void *)f, 1) == 0)
		return 1;
	sleep(1);
	return f(1) != 5;
}
