/*
 * jit: code as a JIT makes it: an anonymous executable page, named in
 * /tmp/perf-PID.map as V8's --perf-basic-prof and Python 3.12's perf
 * trampoline name theirs ("START SIZE name", hex).  Three ranges are
 * named (one name with spaces and a colon, one written twice: the later
 * line wins), then jit:::fn(a, b, c, d, e) fires with a the first range's
 * start, b 5 bytes into the second, c in the twice-named one, d in the
 * page but in no range, e the page.  Prints "PID PAGE" first and waits to
 * be killed; a child removes the map file when the process is gone.
 * "jit loop" (for a PID namespace: its child would die with the
 * namespace) calls write(-1, a, 0) every 20 ms for a minute instead, and
 * removes the map file itself.  "jit memfd" makes the page as JITs that
 * map their code twice do: a memfd mapped writable and executable (the
 * mapping reads "/memfd:jit (deleted)", not ELF).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sdt.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[64], c;
	int fds[2];
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	FILE *f;

	if (p == MAP_FAILED || pipe(fds) != 0)
		return 1;
	if (argc > 1 && strcmp(argv[1], "memfd") == 0) {
		int fd = memfd_create("jit", 0);

		if (fd < 0 || ftruncate(fd, 4096) != 0 ||
		    (p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
			return 1;
		memset(p, 0xc3, 4096); /* ret */
		if ((p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0)) == MAP_FAILED)
			return 1;
	} else {
		memset(p, 0xc3, 4096);
		if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
			return 1;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if ((f = fopen(path, "w")) == NULL)
		return 1;
	fprintf(f, "%lx 20 jit_one\n", (unsigned long)p);
	fprintf(f, "%lx 10 LazyCompile:*fib bench.js:3\n", (unsigned long)(p + 0x40));
	fprintf(f, "%lx 10 old_name\n", (unsigned long)(p + 0x80));
	fprintf(f, "%lx 10 new_name\n", (unsigned long)(p + 0x80));
	fclose(f);
	if (argc > 1 && strcmp(argv[1], "loop") == 0) {
		printf("%d %lx\n", (int)getpid(), (unsigned long)p);
		fflush(stdout);
		for (int i = 0; i < 3000 && write(-1, p, 0) < 0; i++)
			usleep(20000);
		unlink(path);
		return 0;
	}
	if (fork() == 0) { /* the pipe's end: when the parent is gone, remove its map */
		close(fds[1]);
		while (read(fds[0], &c, 1) > 0)
			;
		unlink(path);
		_exit(0);
	}
	close(fds[0]);
	printf("%d %lx\n", (int)getpid(), (unsigned long)p);
	fflush(stdout);
	uint8_t *volatile a = p, *volatile b = p + 0x45, *volatile cc = p + 0x88,
			  *volatile d = p + 0x200;

	DTRACE_PROBE5(jit, fn, a, b, cc, d, a);
	alarm(30);
	pause();
	return 0;
}
