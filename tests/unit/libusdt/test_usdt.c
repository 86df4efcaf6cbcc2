/*
 * Unit tests of libusdt without a tracer: API misuse, the lifecycle, the
 * files, the runtime directory checks and a full disk.  Each scenario that
 * depends on the process's first provider (the runtime directory is chosen
 * once) runs in a child process.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.h"
#include "../../../libusdt/us_impl.h" /* us_probe_addr_check */
#include "usdt.h"

static char rundir[] = "/tmp/usdt-unit-XXXXXX";
static const char *self; /* argv[0]: /proc/self/exe is valgrind's under valgrind */

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_names_and_arguments(void)
{
	static const usdt_argtype_t two[] = { USDT_ARG_INT32, USDT_ARG_STRING };
	usdt_argtype_t bad[] = { USDT_ARG_INT32, (usdt_argtype_t)99 };
	usdt_argtype_t many[13];
	usdt_provider_t *p;
	int err = 0;

	for (int i = 0; i < 13; i++)
		many[i] = USDT_ARG_INT64;
	CHECK(usdt_provider_create("", NULL, NULL, &err) == NULL);
	CHECK_INT(err, -EUSDT_BADNAME);
	CHECK(usdt_provider_create("9lives", NULL, NULL, &err) == NULL);
	CHECK_INT(err, -EUSDT_BADNAME);
	CHECK(usdt_provider_create("has-dash", NULL, NULL, &err) == NULL);
	CHECK(usdt_provider_create(NULL, NULL, NULL, &err) == NULL);
	CHECK(usdt_provider_create("ok", "../escape", NULL, &err) == NULL);
	CHECK_INT(err, -EUSDT_BADNAME);
	CHECK(usdt_provider_create("ok", "a/b", NULL, &err) == NULL);
	CHECK(usdt_provider_create(
		  "a_name_that_is_far_too_long_for_a_provider_name_in_dtrace_xxxxxxxxxxx", NULL,
		  NULL, &err) == NULL);
	{
		struct usdt_provider_opts o = { .sz = sizeof(o), .flags = 0x80 };
		struct {
			struct usdt_provider_opts o;
			int extra;
		} big = { { .sz = sizeof(big) }, 1 };

		CHECK(usdt_provider_create("ok", NULL, &o, &err) == NULL);
		CHECK_INT(err, -EUSDT_BADOPTS);
		CHECK(usdt_provider_create("ok", NULL, &big.o, &err) == NULL);
		CHECK_INT(err, -EUSDT_BADOPTS);
		big.extra = 0; /* unknown trailing bytes that are zero are fine */
		p = usdt_provider_create("ok", NULL, &big.o, &err);
		CHECK(p != NULL);
		usdt_provider_destroy(p);
	}

	p = usdt_provider_create("unit", "unitmod", NULL, &err);
	CHECK(p != NULL);
	CHECK_INT(err, 0);
	if (p == NULL)
		return;
	CHECK(usdt_probe_create(p, "f", "bad name", 0, NULL) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_BADNAME);
	CHECK(usdt_probe_create(p, "f", NULL, 0, NULL) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_BADNAME);
	/* "-" is "__" in the note: one probe by either name; function NULL is its name */
	CHECK(usdt_probe_create(p, NULL, "query-start", 0, NULL) != NULL);
	CHECK(usdt_probe_create(p, "f", "query__start", 0, NULL) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_DUPLICATE);
	CHECK(strstr(usdt_provider_errmsg(p), "probe query__start") != NULL);
	CHECK(usdt_probe_create(p, "f", "--------------------------------", 0, NULL) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_BADNAME); /* 64 bytes in the note */
	CHECK(usdt_probe_create(p, "f", "-------------------------------", 0, NULL) != NULL);
	CHECK(usdt_probe_create(p, "f", "x", 13, many) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_TOOMANYARGS);
	CHECK(usdt_probe_create(p, "f", "x", -1, many) == NULL);
	CHECK(usdt_probe_create(p, "f", "x", 2, NULL) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_BADTYPE);
	CHECK(strstr(usdt_provider_errmsg(p), "2 arguments but no types") != NULL);
	CHECK(usdt_probe_create(p, "f", "x", 2, bad) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_BADTYPE);
	CHECK(strstr(usdt_provider_errmsg(p), "argument 1") != NULL);
	CHECK(usdt_probe_create(p, "f", "x", 12, many) != NULL);
	CHECK_INT(usdt_provider_errno(p), 0);
	CHECK(usdt_probe_create(p, "g", "x", 0, NULL) == NULL);
	CHECK_INT(usdt_provider_errno(p), EUSDT_DUPLICATE);
	CHECK(usdt_probe_create(p, "f", "y", 2, two) != NULL);
	CHECK(usdt_probe_create(NULL, "f", "z", 0, NULL) == NULL);
	usdt_provider_destroy(p);
	usdt_provider_destroy(NULL);
	CHECK_STR(usdt_strerror(-EUSDT_DESTROYED), "the probe's provider was destroyed");
	CHECK_STR(usdt_strerror(EUSDT_ARGCOUNT), "wrong number of arguments for the probe");
	CHECK_STR(usdt_strerror(-ENOSPC), strerror(ENOSPC));
	CHECK_STR(usdt_strerror(999999), "unknown error");
}

/*
 * A handle keeps a generation in bits 48-63 of the probe's address: memory
 * at or above 2^48 (5-level paging) cannot be handed out.  A test cannot
 * allocate there, so the check usdt_probe_create makes is tried on
 * addresses.
 */
static void test_high_address_refused(void)
{
	CHECK_INT(us_probe_addr_check((const usdt_probe_t *)(uintptr_t)0x7ffffffff000ULL), 0);
	CHECK_INT(us_probe_addr_check((const usdt_probe_t *)(uintptr_t)((1ULL << 48) - 64)), 0);
	CHECK_INT(us_probe_addr_check((const usdt_probe_t *)(uintptr_t)(1ULL << 48)),
		  EUSDT_HIGHADDR);
	CHECK_INT(us_probe_addr_check((const usdt_probe_t *)(uintptr_t)0x00ff000000001000ULL),
		  EUSDT_HIGHADDR);
	{
		int x;

		CHECK_INT(us_probe_addr_check((const usdt_probe_t *)(void *)&x), 0);
	}
	CHECK(strstr(usdt_strerror(-EUSDT_HIGHADDR), "2^48") != NULL);
}

static int count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int n = 0;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		n++;
	if (f != NULL)
		fclose(f);
	return n;
}

/*
 * Providers created, enabled and destroyed over and over (one at a time,
 * and two with different probe counts, and a rebuild by a new probe): the
 * retired images' ranges are reused, so the process's mappings do not grow
 * with the number of providers it has had (they grew by 3 a provider).
 */
static void test_churn_does_not_grow(void)
{
	static const usdt_argtype_t one[] = { USDT_ARG_INT32 };
	int before = 0;

	for (int i = 0; i < 300; i++) {
		usdt_provider_t *p = usdt_provider_create("churn", "unitchurn", NULL, NULL);
		usdt_provider_t *q = usdt_provider_create("churn", "unitchurn2", NULL, NULL);
		usdt_probe_t *a = p != NULL ? usdt_probe_create(p, "f", "tick", 1, one) : NULL;

		CHECK(a != NULL && q != NULL);
		for (int k = 0; q != NULL && k < 1 + i % 3; k++) {
			char name[16];

			snprintf(name, sizeof(name), "p%d", k);
			CHECK(usdt_probe_create(q, "f", name, 0, NULL) != NULL);
		}
		CHECK_INT(usdt_provider_enable(p), 0);
		CHECK_INT(usdt_provider_enable(q), 0);
		usdt_probe_fire1(a, (uint64_t)i);
		CHECK(usdt_probe_create(p, "f", "late", 0, NULL) != NULL); /* a rebuild */
		usdt_provider_destroy(q);
		usdt_provider_destroy(p);
		usdt_probe_fire1(a, 1); /* a destroyed probe does nothing */
		if (i == 10)
			before = count_maps();
	}
	CHECK(count_maps() <= before + 6);
}

/*
 * A destroyed provider's probe memory is reused once its quarantine (2 s)
 * is over, so a process that makes and destroys providers does not keep a
 * probe's worth of memory for each (it kept ~200 bytes each).  An old
 * handle then names the same memory with an older generation: it must not
 * fire, nor read as enabled, the new probe.
 */
static void test_probe_memory_reused(void)
{
	static const usdt_argtype_t one[] = { USDT_ARG_INT32 };
	usdt_arg_t arg = { .i = 1 };
	usdt_provider_t *p = usdt_provider_create("reuse", "unitreuse", NULL, NULL);
	usdt_probe_t *old = p != NULL ? usdt_probe_create(p, "f", "a", 1, one) : NULL, *fresh;
	usdt_provider_t *q;
	bool same = false;

	CHECK(old != NULL);
	usdt_provider_destroy(p);
	/* within the quarantine: new memory */
	q = usdt_provider_create("reuse", "unitreuse", NULL, NULL);
	fresh = q != NULL ? usdt_probe_create(q, "f", "b", 1, one) : NULL;
	CHECK(fresh != NULL &&
	      ((uintptr_t)fresh & 0xffffffffffffULL) != ((uintptr_t)old & 0xffffffffffffULL));
	usdt_provider_destroy(q);
	usleep(2100 * 1000);
	q = usdt_provider_create("reuse", "unitreuse", NULL, NULL);
	for (int i = 0; q != NULL && i < 4 && !same; i++) {
		char name[8];

		snprintf(name, sizeof(name), "n%d", i);
		fresh = usdt_probe_create(q, "f", name, 1, one);
		CHECK(fresh != NULL);
		same = fresh != NULL && ((uintptr_t)fresh & 0xffffffffffffULL) ==
					    ((uintptr_t)old & 0xffffffffffffULL);
	}
	CHECK(same); /* the oldest buried probe came back */
	CHECK(fresh != old);
	CHECK_INT(usdt_provider_enable(q), 0);
	CHECK_INT(usdt_probe_fire(fresh, 1, &arg), 0);
	CHECK_INT(usdt_probe_fire(old, 1, &arg), -EUSDT_DESTROYED);
	CHECK_INT(usdt_probe_is_enabled(old), 0);
	usdt_probe_fire1(old, 1);
	usdt_provider_destroy(q);
	CHECK_INT(usdt_probe_fire(fresh, 1, &arg), -EUSDT_DESTROYED);
}

static void test_lifecycle(void)
{
	static const usdt_argtype_t t[] = { USDT_ARG_INT8, USDT_ARG_DOUBLE };
	usdt_provider_t *p = usdt_provider_create("life", "unitmod", NULL, NULL);
	usdt_probe_t *a, *b;
	const char *path;
	char saved[4096];
	usdt_arg_t args[2] = { { .i = -1 }, { .d = 2.5 } };
	const volatile uint16_t *sa;
	struct stat st;

	CHECK(p != NULL);
	if (p == NULL)
		return;
	a = usdt_probe_create(p, "f", "a", 2, t);
	CHECK(a != NULL);
	CHECK(usdt_provider_path(p) == NULL);
	CHECK(usdt_probe_semaphore(a) == NULL); /* not enabled: no image */
	CHECK_INT(usdt_provider_disable(p), -EUSDT_NOTENABLED);
	CHECK_INT(usdt_provider_enable(p), 0);
	path = usdt_provider_path(p);
	CHECK(path != NULL && strncmp(path, rundir, strlen(rundir)) == 0);
	snprintf(saved, sizeof(saved), "%s", path ? path : "");
	CHECK(stat(saved, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK_INT(usdt_provider_enable(p), -EUSDT_ENABLED);
	CHECK_INT(usdt_probe_is_enabled(a), 0); /* no tracer */
	sa = usdt_probe_semaphore(a);
	CHECK(sa != NULL && *sa == 0);
	CHECK_INT(usdt_probe_fire(a, 2, args), 0);
	CHECK_INT(usdt_probe_fire(a, 1, args), -EUSDT_ARGCOUNT);
	CHECK_INT(usdt_probe_fire(a, 2, NULL), -EUSDT_ARGCOUNT);
	CHECK_INT(usdt_probe_fire(NULL, 0, NULL), -EINVAL);
	usdt_probe_fire2(a, 1, 2);
	usdt_probe_fire6(NULL, 1, 2, 3, 4, 5, 6);
	CHECK_INT(usdt_probe_is_enabled(NULL), 0);

	/* a probe added after enable rebuilds: a new file, the old one gone */
	b = usdt_probe_create(p, "f", "b", 0, NULL);
	CHECK(b != NULL);
	CHECK(usdt_provider_path(p) != NULL && strcmp(usdt_provider_path(p), saved) != 0);
	CHECK(access(saved, F_OK) != 0);
	CHECK_INT(count_files(rundir), 1);
	usdt_probe_fire0(b);
	/* the image moved: a's semaphore with it; b's is the next word */
	CHECK(usdt_probe_semaphore(a) != NULL && usdt_probe_semaphore(a) != sa);
	CHECK(usdt_probe_semaphore(b) == usdt_probe_semaphore(a) + 1);
	CHECK(sa != NULL && *sa == 0); /* the old one stays readable */

	/* disable removes the file; enable again makes one */
	CHECK_INT(usdt_provider_disable(p), 0);
	CHECK(usdt_provider_path(p) == NULL);
	CHECK_INT(count_files(rundir), 0);
	usdt_probe_fire0(b); /* fires into nothing */
	CHECK(usdt_probe_semaphore(b) == NULL);
	CHECK_INT(usdt_provider_enable(p), 0);
	CHECK_INT(count_files(rundir), 1);

	usdt_provider_destroy(p);
	CHECK_INT(count_files(rundir), 0);
	/* destroyed: the handles stay safe to use, and say so */
	CHECK_INT(usdt_probe_fire(a, 2, args), -EUSDT_DESTROYED);
	CHECK_INT(usdt_probe_is_enabled(a), 0);
	CHECK(usdt_probe_semaphore(a) == NULL && usdt_probe_semaphore(NULL) == NULL);
	usdt_probe_fire0(b);
}

static void test_same_name_two_modules(void)
{
	usdt_provider_t *p1 = usdt_provider_create("twin", "mod1", NULL, NULL);
	usdt_provider_t *p2 = usdt_provider_create("twin", "mod2", NULL, NULL);

	CHECK(p1 != NULL && p2 != NULL);
	if (p1 == NULL || p2 == NULL)
		return;
	CHECK(usdt_probe_create(p1, "f", "x", 0, NULL) != NULL);
	CHECK(usdt_probe_create(p2, "f", "x", 0, NULL) != NULL);
	CHECK_INT(usdt_provider_enable(p1), 0);
	CHECK_INT(usdt_provider_enable(p2), 0);
	CHECK(strstr(usdt_provider_path(p1), "mod1") != NULL);
	CHECK(strstr(usdt_provider_path(p2), "mod2") != NULL);
	CHECK_INT(count_files(rundir), 2);
	usdt_provider_destroy(p1);
	usdt_provider_destroy(p2);
	CHECK_INT(count_files(rundir), 0);
}

/*
 * Run a scenario in a new process (the runtime directory is chosen once per
 * process, so fork alone would inherit ours); returns its exit status.
 */
static int in_child(const char *scenario, const char *dir)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		setenv("USDT_RUNTIME_DIR", dir, 1);
		execl(self, self, scenario, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int enable_one(void)
{
	usdt_provider_t *p = usdt_provider_create("c", "childmod", NULL, NULL);
	int rc;

	if (p == NULL || usdt_probe_create(p, "f", "x", 0, NULL) == NULL)
		return 10;
	rc = usdt_provider_enable(p);
	if (rc == -EUSDT_RUNDIR && strstr(usdt_provider_errmsg(p), "private") != NULL)
		rc = 3;
	else if (rc == -EUSDT_RUNDIR && strstr(usdt_provider_errmsg(p), "absolute path") != NULL)
		rc = 6;
	else if (rc == -EUSDT_ELF && strstr(usdt_provider_errmsg(p), "cannot write") != NULL)
		rc = 4;
	else if (rc != 0)
		rc = 5;
	usdt_provider_destroy(p); /* no leak for ASan to report in any case */
	return rc;
}

/*
 * A failed enable is not kept: the first one fails (the directory given is
 * refused), then USDT_RETRY_DIR is made the runtime directory and the same
 * provider, and a new one, enable there.  Exit status: 0, or the step that
 * went wrong.
 */
static int enable_after_fix(void)
{
	usdt_provider_t *p = usdt_provider_create("r", "retrymod", NULL, NULL), *q = NULL;
	const char *fixed = getenv("USDT_RETRY_DIR");
	int rc = 0;

	if (p == NULL || usdt_probe_create(p, "f", "x", 0, NULL) == NULL || fixed == NULL)
		return 10;
	if (usdt_provider_enable(p) != -EUSDT_RUNDIR)
		rc = 11;
	else if (setenv("USDT_RUNTIME_DIR", fixed, 1) != 0)
		rc = 12;
	else if (usdt_provider_enable(p) != 0)
		rc = 13; /* before the fix: the first failure, again */
	else if (strstr(usdt_provider_path(p), fixed) != usdt_provider_path(p))
		rc = 14;
	else if ((q = usdt_provider_create("r2", "retrymod", NULL, NULL)) == NULL ||
		 usdt_probe_create(q, "f", "y", 0, NULL) == NULL || usdt_provider_enable(q) != 0)
		rc = 15;
	usdt_provider_destroy(q);
	usdt_provider_destroy(p);
	return rc;
}

static int enable_with_full_disk(void)
{
	struct rlimit rl = { 4096, 4096 };

	/* a full disk, as far as this process can tell: writes past 4 KiB fail */
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &rl);
	return enable_one();
}

/* Field 22 of /proc/PID/stat, read here independently of libusdt. */
static unsigned long long start_of(pid_t pid)
{
	char path[64], line[1024], *p;
	unsigned long long st = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), f) != NULL && (p = strrchr(line, ')')) != NULL)
		sscanf(p + 2,
		       "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		       "%*d %*d %llu",
		       &st);
	fclose(f);
	return st;
}

/* An image file nobody locks, named for writer pid and start. */
static void plant(char *path, size_t len, pid_t pid, unsigned long long start)
{
	int fd;

	snprintf(path, len, "%s/%d-%llu-m-planted-0.so", rundir, (int)pid, start);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}

/* A reaper that cannot open /proc (no descriptor left) must not remove files. */
static int reap_without_descriptors(void)
{
	struct rlimit old, rl;

	/* 0-2, and one for the directory; restored before exit, where ASan's
	 * leak check needs descriptors */
	getrlimit(RLIMIT_NOFILE, &old);
	rl = old;
	rl.rlim_cur = 4;
	setrlimit(RLIMIT_NOFILE, &rl);
	enable_one();
	setrlimit(RLIMIT_NOFILE, &old);
	return 0;
}

static void test_reaping_spares_the_living(void)
{
	usdt_provider_t *p1 = usdt_provider_create("twin", "same", NULL, NULL);
	usdt_provider_t *p2 = usdt_provider_create("twin", "same", NULL, NULL);
	char path[4096], live[4096], reused[4096], buf[8] = "", want[64];
	int to_child[2], to_parent[2];
	pid_t pid;
	int st;

	/* the same name and module twice: two images, both live */
	CHECK(p1 != NULL && p2 != NULL);
	if (p1 == NULL || p2 == NULL)
		return;
	CHECK(usdt_probe_create(p1, "f", "x", 0, NULL) != NULL);
	CHECK(usdt_probe_create(p2, "f", "x", 0, NULL) != NULL);
	CHECK_INT(usdt_provider_enable(p1), 0);
	CHECK_INT(usdt_provider_enable(p2), 0);
	if (usdt_provider_path(p1) == NULL || usdt_provider_path(p2) == NULL) {
		CHECK(!"both twins enabled");
		usdt_provider_destroy(p1);
		usdt_provider_destroy(p2);
		return;
	}
	CHECK(strcmp(usdt_provider_path(p1), usdt_provider_path(p2)) != 0);

	/*
	 * Unlocked files, so that the lock does not decide: the writer's PID
	 * and start time do.  Ours (alive) stays, also for a reaper out of
	 * descriptors; one whose PID now names another process (a start time
	 * that is not ours) goes.
	 */
	plant(live, sizeof(live), getpid(), start_of(getpid()));
	plant(reused, sizeof(reused), getpid(), start_of(getpid()) + 1);
	CHECK_INT(in_child("emfile", rundir), 0);
	CHECK_INT(access(live, F_OK), 0);
	CHECK_INT(in_child("enable", rundir), 0);
	CHECK_INT(access(live, F_OK), 0);
	CHECK_INT(access(reused, F_OK), -1);
	unlink(live);
	CHECK_INT(access(usdt_provider_path(p1), F_OK), 0);

	/*
	 * A forked child's own provider is named by the child's start time:
	 * another process starting must not take it for a dead process's.
	 */
	CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0);
	usleep(30000); /* start times count 10 ms ticks */
	if ((pid = fork()) == 0) {
		usdt_provider_t *c = usdt_provider_create("forked", "child", NULL, NULL);
		const char *cp;

		if (c == NULL || usdt_probe_create(c, "f", "x", 0, NULL) == NULL ||
		    usdt_provider_enable(c) != 0)
			_exit(1);
		cp = usdt_provider_path(c);
		if (write(to_parent[1], cp, strlen(cp) + 1) < 0 || read(to_child[0], buf, 1) != 1)
			_exit(2);
		_exit(access(cp, F_OK) == 0 ? 0 : 3);
	}
	CHECK(pid > 0);
	memset(path, 0, sizeof(path));
	CHECK(read(to_parent[0], path, sizeof(path) - 1) > 0);
	snprintf(want, sizeof(want), "/%d-%llu-child-forked-", (int)pid, start_of(pid));
	CHECK(strstr(path, want) != NULL);	  /* not the parent's start time */
	CHECK_INT(in_child("enable", rundir), 0); /* a new process reaps */
	CHECK_INT(access(path, F_OK), 0);
	CHECK(write(to_child[1], "x", 1) == 1);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st));
	CHECK_INT(WEXITSTATUS(st), 0);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	unlink(path); /* the child exited with _exit: no atexit cleanup */
	usdt_provider_destroy(p1);
	usdt_provider_destroy(p2);
}

static void test_runtime_dir_and_disk(void)
{
	char open_dir[] = "/tmp/usdt-open-XXXXXX", link[64], slash[80];

	CHECK(mkdtemp(open_dir) != NULL);
	chmod(open_dir, 0777);
	CHECK_INT(in_child("enable", open_dir), 3); /* refused: not private */
	CHECK_INT(count_files(open_dir), 0);
	chmod(open_dir, 0700);
	CHECK_INT(in_child("enable", open_dir), 0);
	CHECK_INT(in_child("fulldisk", open_dir), 4);
	CHECK_INT(count_files(open_dir), 0); /* no half-written file left */
	/* a link to it is refused, with or without a trailing slash */
	snprintf(link, sizeof(link), "%s-link", open_dir);
	CHECK_INT(symlink(open_dir, link), 0);
	CHECK_INT(in_child("enable", link), 3);
	snprintf(slash, sizeof(slash), "%s/", link);
	CHECK_INT(in_child("enable", slash), 3);
	snprintf(slash, sizeof(slash), "%s//", open_dir);
	CHECK_INT(in_child("enable", slash), 0);
	unlink(link);
	/* relative: a tracer could not find the files, nor we after chdir */
	CHECK_INT(in_child("enable", "relative/dir"), 6);
	/* refused, then fixed: the next enable tries again, and leaves nothing */
	setenv("USDT_RETRY_DIR", open_dir, 1);
	CHECK_INT(in_child("retry", "relative/dir"), 0);
	chmod(open_dir, 0777);
	setenv("USDT_RETRY_DIR", rundir, 1);
	CHECK_INT(in_child("retry", open_dir), 0);
	unsetenv("USDT_RETRY_DIR");
	CHECK_INT(count_files(open_dir), 0);
	rmdir(open_dir);
}

static int watch_calls;

static void count_watch(bool on, void *arg)
{
	(void)on;
	(void)arg;
	__atomic_add_fetch(&watch_calls, 1, __ATOMIC_RELAXED);
}

/*
 * The runtime watcher: bad arguments refused; untraced, it never calls
 * back; stop joins it; a forked child's stop only frees (it has no
 * thread).  The traced side is tested through the bindings' runtime
 * providers, which count calls under a real tracer.
 */
static void test_watch(void)
{
	usdt_provider_t *p = usdt_provider_create("unitw", "unitmod", NULL, NULL);
	usdt_probe_t *pr[1] = { p != NULL ? usdt_probe_create(p, NULL, "w", 0, NULL) : NULL };
	usdt_watch_t *w;
	int err = 0, st = 0;
	pid_t pid;

	CHECK(pr[0] != NULL && usdt_provider_enable(p) == 0);
	CHECK(usdt_watch_start(pr, 0, 1000000, count_watch, NULL, &err) == NULL);
	CHECK_INT(err, -EINVAL);
	CHECK(usdt_watch_start(pr, 1, 1000000, NULL, NULL, &err) == NULL);
	CHECK_INT(err, -EINVAL);
	err = 12345;
	w = usdt_watch_start(pr, 1, 1000000, count_watch, NULL, &err); /* every 1 ms */
	CHECK(w != NULL);
	CHECK_INT(err, 0);
	usleep(50000);
	if ((pid = fork()) == 0) {
		usdt_watch_stop(w);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	usdt_watch_stop(w);
	CHECK_INT(__atomic_load_n(&watch_calls, __ATOMIC_RELAXED), 0);
	usdt_watch_stop(NULL);
	usdt_provider_destroy(p);
}

/*
 * One convention for every *errp (usdt.h, "Errors"): it holds what an int
 * function would return, 0 or the code negated, so a caller tests and
 * names it the same way whichever function failed.  usdt_watch_start()
 * stored the positive errno before.
 */
static void test_errp_convention(void)
{
	usdt_provider_t *p = usdt_provider_create("unite", "unitmod", NULL, NULL);
	usdt_probe_t *pr[1] = { p != NULL ? usdt_probe_create(p, NULL, "e", 0, NULL) : NULL };
	usdt_watch_t *w;
	int perr = 0, werr = 0, rc;

	CHECK(pr[0] != NULL);
	CHECK(usdt_provider_create("bad-name", NULL, NULL, &perr) == NULL);
	CHECK(usdt_watch_start(pr, -1, 1000000, count_watch, NULL, &werr) == NULL);
	CHECK(perr < 0 && werr < 0);
	CHECK_INT(perr, -EUSDT_BADNAME);
	CHECK_INT(werr, -EINVAL);
	/* the int functions' sign: disabling a provider that is not enabled */
	rc = usdt_provider_disable(p);
	CHECK(rc < 0);
	CHECK_INT(rc, -EUSDT_NOTENABLED);
	CHECK_INT(usdt_provider_errno(p), EUSDT_NOTENABLED); /* the object keeps it positive */
	CHECK_STR(usdt_strerror(werr), strerror(EINVAL));
	CHECK_STR(usdt_strerror(perr), usdt_strerror(EUSDT_BADNAME));
	/* success stores 0 in both */
	perr = werr = 77;
	usdt_provider_destroy(usdt_provider_create("fine", NULL, NULL, &perr));
	CHECK_INT(perr, 0);
	w = usdt_watch_start(pr, 1, 1000000, count_watch, NULL, &werr);
	CHECK(w != NULL);
	CHECK_INT(werr, 0);
	usdt_watch_stop(w);
	usdt_provider_destroy(p);
}

int main(int argc, char **argv)
{
	self = argv[0];
	if (argc > 1)
		return strcmp(argv[1], "fulldisk") == 0 ? enable_with_full_disk()
		       : strcmp(argv[1], "emfile") == 0 ? reap_without_descriptors()
		       : strcmp(argv[1], "retry") == 0	? enable_after_fix()
							: enable_one();
	if (mkdtemp(rundir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	setenv("USDT_RUNTIME_DIR", rundir, 1);
	test_probe_memory_reused(); /* first: the graveyard is empty */
	test_names_and_arguments();
	test_high_address_refused();
	test_lifecycle();
	test_churn_does_not_grow();
	test_same_name_two_modules();
	test_reaping_spares_the_living();
	test_runtime_dir_and_disk();
	test_watch();
	test_errp_convention();
	CHECK_INT(count_files(rundir), 0);
	rmdir(rundir);
	return CHECK_DONE();
}
