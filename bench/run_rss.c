/*
 * run_rss FILE CMD [ARG...]: runs CMD, then writes "WALL_NS MAXRSS_KIB
 * STATUS" to FILE.  trace_bench.py measures a tool's peak memory through
 * this small process: a child forked by Python starts with Python's own
 * resident set (13 MB) counted in its ru_maxrss, which would hide a tool
 * smaller than that.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: run_rss FILE CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) < 0) {
		perror("run_rss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("run_rss: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if ((f = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	fprintf(f, "%lld %ld %d\n",
		(long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
		ru.ru_maxrss, status);
	return fclose(f) == 0 ? 0 : 2;
}
