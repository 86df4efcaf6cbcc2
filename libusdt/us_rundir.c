/*
 * us_rundir.c -- where images live, and cleaning up after processes that
 * died without removing theirs.
 *
 * Images must be real files: tracers find them through /proc/PID/maps and
 * open them by path.  (A memfd would show as "/memfd:NAME (deleted)": the
 * kernel can probe it, and our dtrace reads it through /proc/PID/map_files,
 * bpftrace through an open /proc/PID/fd/N, but tools that go by the mapped
 * path cannot; docs/libusdt.md, "Why not memfd".)  They go to a directory only
 * this user can enter: $USDT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/usdt, else
 * /tmp/usdt-UID, mode 0700 and owned by us, or we refuse it.  File names
 * start with PID-STARTTIME-, so that a later process can tell that the
 * writer has died (or that its PID was reused) and remove the file.
 *
 * The writer holds a shared flock on each file for as long as it (or a
 * forked child) maps it, with a close-on-exec descriptor.  A file is
 * removed only if no one holds it and its writer is gone: a process in
 * another PID namespace, or one that cannot read /proc (EMFILE), never
 * removes a live file.  Files of our own PID and start time that no one
 * holds were left by this process before an exec.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "us_impl.h"

static int private_dir(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(path, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	if (lstat(path, &st) != 0) {
		snprintf(err, errlen, "cannot stat %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		snprintf(err, errlen,
			 "%s is not a private directory (it must be ours, mode 0700, not a link)",
			 path);
		return -1;
	}
	return 0;
}

int us_rundir(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("USDT_RUNTIME_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env != NULL && *env != '\0' && *env != '/') {
		snprintf(err, errlen, "USDT_RUNTIME_DIR must be an absolute path, not %s", env);
		return -1;
	}
	if (env != NULL && *env != '\0')
		n = snprintf(buf, len, "%s", env);
	else if (xdg != NULL && *xdg == '/' && access(xdg, W_OK | X_OK) == 0)
		n = snprintf(buf, len, "%s/usdt", xdg);
	else
		n = snprintf(buf, len, "/tmp/usdt-%u", (unsigned)geteuid());
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "runtime directory path too long");
		return -1;
	}
	/* "dir/" would make lstat follow a link named dir */
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	return private_dir(buf, err, errlen);
}

/*
 * Field 22 of /proc/PID/stat: when the process started, in clock ticks.
 * -1 with errno ENOENT when there is no such process; any other errno
 * means we could not tell.
 */
int us_proc_starttime(pid_t pid, unsigned long long *st)
{
	char path[64], line[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0) {
		errno = n < 0 && errno == ESRCH ? ENOENT : n < 0 ? errno : EIO;
		return -1;
	}
	line[n] = '\0';
	/* the command name may hold spaces and parentheses: skip to the last ')' */
	if ((p = strrchr(line, ')')) == NULL) {
		errno = EIO;
		return -1;
	}
	p++;
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (p == NULL) {
			errno = EIO;
			return -1;
		}
	}
	*st = strtoull(p + 1, NULL, 10);
	return 0;
}

/* May the file of writer pid/start go?  Only if it is gone, or it is us before an exec. */
static bool writer_gone(int pid, unsigned long long start, pid_t self,
			unsigned long long self_start)
{
	unsigned long long now;

	if (pid == (int)self)
		return start == self_start;
	if (us_proc_starttime(pid, &now) == 0)
		return now != start; /* the pid was reused */
	return errno == ENOENT;
}

void us_reap(const char *dir, pid_t self, unsigned long long self_start)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		unsigned long long start;
		char path[4096];
		int pid, used = 0, fd;

		if (sscanf(de->d_name, "%d-%llu-%n", &pid, &start, &used) != 2 || used == 0 ||
		    pid <= 0 || strlen(de->d_name) < 4 ||
		    strcmp(de->d_name + strlen(de->d_name) - 3, ".so") != 0)
			continue;
		if (!writer_gone(pid, start, self, self_start))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
			continue;
		/* held: a live process (another namespace, a forked child) maps it */
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlink(path);
		close(fd);
	}
	closedir(d);
}
