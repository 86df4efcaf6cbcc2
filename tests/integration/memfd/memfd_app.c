/*
 * memfd_app -- loads a shared object the way libstapsdt loads its provider
 * image, from memory, so that the mapping has no file name:
 *
 *   memfd_app memfd LIB.so N    copy LIB.so into a memfd, dlopen
 *                               /proc/self/fd/FD (the fd stays open, as
 *                               libstapsdt keeps it)
 *   memfd_app closed LIB.so N   the same, the fd closed after dlopen: only
 *                               the mapping holds the memfd
 *   memfd_app deleted LIB.so N  a copy in a file, dlopen, unlink
 *
 * It prints "ready" and waits (up to 30 s) for the probe's semaphore to
 * rise, fires stapapp:::firstProbe N times (arg0 = 0..N-1), then waits for
 * the semaphore to fall (up to 10 s: the tracer has detached) and prints
 * "fired N" or "timeout".  With N = 0 it waits for a line on stdin.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int copy(int from, int to)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) > 0)
		if (write(to, buf, (size_t)n) != n)
			return -1;
	return n < 0 ? -1 : 0;
}

static void nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	char path[64], tmp[] = "/tmp/stapapp-XXXXXX";
	int (*enabled)(void);
	void (*fire)(int, char *);
	int src, fd, n, i;
	void *h;

	if (argc != 4) {
		fprintf(stderr, "usage: memfd_app memfd|closed|deleted LIB.so N\n");
		return 2;
	}
	n = atoi(argv[3]);
	if ((src = open(argv[2], O_RDONLY)) < 0) {
		perror(argv[2]);
		return 1;
	}
	if (strcmp(argv[1], "deleted") == 0)
		fd = mkstemp(tmp);
	else
		fd = memfd_create("stapapp", 0);
	if (fd < 0 || copy(src, fd) != 0) {
		perror("copy");
		return 1;
	}
	close(src);
	if (strcmp(argv[1], "deleted") == 0)
		snprintf(path, sizeof(path), "%s", tmp);
	else
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((h = dlopen(path, RTLD_NOW)) == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	if (strcmp(argv[1], "deleted") == 0)
		unlink(tmp);
	if (strcmp(argv[1], "memfd") != 0)
		close(fd);
	enabled = (int (*)(void))dlsym(h, "stapapp_enabled");
	fire = (void (*)(int, char *))dlsym(h, "stapapp_fire");
	if (enabled == NULL || fire == NULL) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	if (n == 0) {
		char line[16];

		return fgets(line, sizeof(line), stdin) == NULL;
	}
	for (i = 0; i < 3000 && !enabled(); i++)
		nap();
	if (!enabled()) {
		printf("timeout\n");
		return 1;
	}
	for (i = 0; i < n; i++)
		fire(i, "memfd");
	for (i = 0; i < 1000 && enabled(); i++)
		nap();
	printf("fired %d%s\n", n, enabled() ? " still-enabled" : "");
	return 0;
}
