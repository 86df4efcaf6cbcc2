/*
 * copyout_sdt: for each step 1..argv[1], fills dst with 15 dots, fires
 * co:::step(step, dst, src) through <sys/sdt.h> (src holds "HELLO,
 * world"; printed first), then prints what dst holds: each of its 16 bytes, a NUL as
 * \0.  run.copyout*.d overwrite dst at the probe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

int main(int argc, char **argv)
{
	static const char src[] = "HELLO, world";
	int steps = argc > 1 ? atoi(argv[1]) : 1;
	char dst[16];

	printf("src: %s\n", src); /* in memory: the kernel's copies do not fault pages in */
	for (int i = 1; i <= steps; i++) {
		memset(dst, '.', sizeof(dst) - 1);
		dst[sizeof(dst) - 1] = '\0';
		DTRACE_PROBE3(co, step, i, dst, src);
		printf("%d: ", i);
		for (size_t j = 0; j < sizeof(dst); j++)
			fputs(dst[j] == '\0' ? "\\0" : (char[]){ dst[j], '\0' }, stdout);
		putchar('\n');
		fflush(stdout);
	}
	return 0;
}
