/*
 * Descriptor 0 is a descriptor like any other: a group's table map that
 * gets it is closed with the handle.  (The loader left a program's
 * bp_tabfd 0 for "none" and closed it only when > 0: a table at 0 leaked.)
 *
 * bpf_map_create is interposed (the kernel shim is linked in, so its call
 * binds to this one): the first "dt_group" map is moved to descriptor 0,
 * as it is when a consumer started with stdin closed.  Needs root (exit 77
 * without).
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"
#include "dtrace.h"

typedef int create_fn(enum bpf_map_type, const char *, __u32, __u32, __u32,
		      const struct bpf_map_create_opts *);

static int moved; /* how many group tables went to descriptor 0 */

int bpf_map_create(enum bpf_map_type type, const char *name, __u32 key_size, __u32 value_size,
		   __u32 max_entries, const struct bpf_map_create_opts *opts)
{
	create_fn *real = (create_fn *)dlsym(RTLD_NEXT, "bpf_map_create");
	int fd;

	if (real == NULL)
		return -ENOSYS;
	fd = real(type, name, key_size, value_size, max_entries, opts);
	if (fd > 0 && moved == 0 && name != NULL && strcmp(name, "dt_group") == 0) {
		if (dup2(fd, 0) != 0)
			return fd;
		close(fd);
		moved++;
		return 0;
	}
	return fd;
}

static int is_bpf_map(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((n = readlink(path, link, sizeof(link) - 1)) < 0)
		return 0;
	link[n] = '\0';
	return strcmp(link, "anon_inode:bpf-map") == 0;
}

int main(void)
{
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	int err = 0;

	if (geteuid() != 0) {
		fprintf(stderr, "test_fd0: not root: cannot trace\n");
		return getenv("CI") && strcmp(getenv("CI"), "true") == 0 ? 1 : 77;
	}
	/* 0 held until the table takes it, so that nothing else gets it */
	if (fcntl(0, F_GETFD) < 0 && open("/dev/null", O_RDONLY) != 0)
		return 1;
	CHECK((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) != NULL);
	if (dtp == NULL)
		return CHECK_DONE();
	/* syscall's entry probes share one program, with its table */
	pgp = dtrace_program_strcompile(dtp, "syscall::getppid:entry, syscall::getpid:entry {}",
					NULL, 0, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL) {
		fprintf(stderr, "%s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return CHECK_DONE();
	}
	CHECK_INT(dtrace_program_exec(dtp, pgp, NULL), 0);
	CHECK_INT(dtrace_go(dtp), 0);
	CHECK_INT(moved, 1);
	CHECK(is_bpf_map(0));
	(void)getppid();
	CHECK_INT(dtrace_stop(dtp), 0);
	dtrace_close(dtp);
	/* closed with the handle, not left open */
	{
		int rc = fcntl(0, F_GETFD), e = errno;

		CHECK_INT(rc, -1);
		CHECK_INT(e, EBADF);
	}
	return CHECK_DONE();
}
