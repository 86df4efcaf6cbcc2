/*
 * across: one target for three providers (run.across.d): work() called
 * W times (argv[1]), write(2) to /dev/null S times (argv[2]) and the USDT
 * probe across:::tick fired T times (argv[3]), each loop on its own so
 * that the counts tell the providers apart.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

__attribute__((noinline)) int work(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3;
}

int main(int argc, char **argv)
{
	int w = argc > 1 ? atoi(argv[1]) : 1, s = argc > 2 ? atoi(argv[2]) : 1;
	int t = argc > 3 ? atoi(argv[3]) : 1, fd = open("/dev/null", O_WRONLY), sum = 0;

	for (int i = 0; i < w; i++)
		sum += work(i);
	for (int i = 0; i < s; i++)
		if (write(fd, "x", 1) != 1)
			return 1;
	for (int i = 0; i < t; i++)
		DTRACE_PROBE1(across, tick, i);
	close(fd);
	return sum == -1;
}
