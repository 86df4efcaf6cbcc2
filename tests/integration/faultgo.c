/*
 * faultgo -- dtrace_go() under an injected kernel failure (DTRACE_KS_FAULT,
 * kernel-shim/ks_fault.c), as a library consumer sees it.
 *
 *   faultgo PID 'D program' [kill]
 *
 * grabs PID, compiles and executes the program and calls dtrace_go()
 * (with "kill": after killing PID, so that it exits between the grab and
 * the attachments).
 * It prints "go 0" or "go -1 MESSAGE", then, after a failure, what the
 * process still holds: "fds N" (BPF maps, programs, links and perf events
 * among its descriptors) and "target STATE" (the grabbed process's state
 * letter from /proc/PID/stat: it must not be stopped, 'T').  Then it waits
 * for a line on stdin before dtrace_close(), while the caller
 * (test_faults.py) looks at the target's semaphores.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtrace.h"

static int kernel_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char path[300], link[256];
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		if ((len = readlink(path, link, sizeof(link) - 1)) <= 0)
			continue;
		link[len] = '\0';
		if (strstr(link, "bpf") != NULL || strstr(link, "perf_event") != NULL)
			n++;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

static char proc_state(int pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((f = fopen(path, "re")) == NULL)
		return '-';
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (p == NULL || (p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return '?';
	return p[2];
}

int main(int argc, char **argv)
{
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	int err, pid, rc;

	if (argc != 3 && !(argc == 4 && strcmp(argv[3], "kill") == 0)) {
		fprintf(stderr, "usage: faultgo PID 'D program' [kill]\n");
		return 2;
	}
	pid = atoi(argv[1]);
	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		fprintf(stderr, "faultgo: %s\n", dtrace_errmsg(NULL, err));
		return 2;
	}
	if (dtrace_proc_grab(dtp, pid) < 0 ||
	    (pgp = dtrace_program_strcompile(dtp, argv[2], "faultgo", 0, 0, NULL)) == NULL ||
	    dtrace_program_exec(dtp, pgp, NULL) != 0) {
		fprintf(stderr, "faultgo: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return 2;
	}
	if (argc == 4) {
		kill(pid, SIGKILL);
		while (proc_state(pid) != 'Z' && proc_state(pid) != '-')
			usleep(1000);
	}
	rc = dtrace_go(dtp);
	if (rc == 0) {
		printf("go 0\n");
		(void)dtrace_proc_continue(dtp);
	} else {
		printf("go -1 %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		printf("fds %d\n", kernel_fds());
		usleep(100 * 1000); /* a SIGCONT takes effect */
		printf("target %c\n", proc_state(pid));
	}
	fflush(stdout);
	{
		char line[16];

		(void)!fgets(line, sizeof(line), stdin);
	}
	dtrace_close(dtp);
	return 0;
}
