/*
 * loop.c -- calls getppid() through g() and f() every 20 ms, N times (argv[1]),
 * built -O2 -fomit-frame-pointer: a stack walked by frame pointers stops in
 * libc's getppid, one walked by the unwind tables reaches main and _start.
 */
#include <stdlib.h>
#include <unistd.h>

__attribute__((noipa)) int f(void)
{
	return getppid() + 1;
}

__attribute__((noipa)) int g(void)
{
	return f() + 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, s = 0;

	for (int i = 0; i < n; i++) {
		s += g();
		usleep(20000);
	}
	return s == 0;
}
