/*
 * dt_proc.c -- the target process: a command dtrace starts (-c), run to
 * its entry point first so that the libraries it links have their probes
 * when the programs are matched, or a running process it grabs (-p); when
 * it exits, and what it exited with.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_run.h"

/* waitpid(), again when a signal handler interrupts it (dtrace(1) installs them without SA_RESTART) */
static pid_t wait_for(pid_t pid, int *st, int flags)
{
	pid_t w;

	while ((w = waitpid(pid, st, flags)) < 0 && errno == EINTR)
		;
	return w;
}

static void set_target(dtrace_hdl_t *dtp, dt_run_t *r, pid_t pid)
{
	if (dtp->dt_target == 0)
		dtp->dt_target = pid;
	r->r_tg.tg_pid = pid;
}

/* The entry point of pid's executable, from its auxiliary vector; 0 if unknown. */
static uint64_t entry_point(pid_t pid)
{
	char path[64];
	uint64_t av[2], entry = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	while (read(fd, av, sizeof(av)) == (ssize_t)sizeof(av) && av[0] != AT_NULL)
		if (av[0] == AT_ENTRY)
			entry = av[1];
	close(fd);
	return entry;
}

/*
 * Run a child stopped at its exec to its entry point, as illumos runs it
 * to main: the dynamic linker has then mapped its libraries, whose probes
 * (libstdcxx$target:::throw) can be enabled before the program runs.  A
 * breakpoint at the entry, then the instruction put back.  Returns 0 with
 * the child stopped at its entry, or -1 if it exited or was killed first
 * (*st says how) or could not be controlled.
 */
static int run_to_entry(pid_t pid, int *st)
{
#if defined(__x86_64__)
	uint64_t entry = entry_point(pid);
	struct user_regs_struct regs;
	long word;
	int sig = 0;

	if (entry == 0)
		return 0; /* stays at its exec: only the executable's probes */
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, entry, 0);
	if (errno != 0 ||
	    ptrace(PTRACE_POKETEXT, pid, entry, (void *)((word & ~0xffL) | 0xcc)) != 0)
		return 0;
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig) != 0 ||
		    wait_for(pid, st, 0) != pid)
			return -1;
		if (!WIFSTOPPED(*st))
			return -1; /* exited, or killed, before its entry */
		sig = WSTOPSIG(*st);
		if (sig != SIGTRAP)
			continue; /* delivered as it goes on */
		if (ptrace(PTRACE_GETREGS, pid, 0, &regs) != 0)
			return -1;
		if (regs.rip == entry + 1)
			break;
	}
	regs.rip = entry;
	if (ptrace(PTRACE_POKETEXT, pid, entry, (void *)word) != 0 ||
	    ptrace(PTRACE_SETREGS, pid, 0, &regs) != 0)
		return -1;
#else
	(void)pid;
	(void)st;
#endif
	return 0;
}

int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[])
{
	dt_run_t *r;
	int pfd[2], st, err = 0;
	pid_t pid, parent = getpid();

	if (dtp == NULL)
		return -1;
	if (argv == NULL || argv[0] == NULL)
		return dt_set_errno(dtp, EDT_BADARG);
	if ((r = dt_run_get(dtp)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (r->r_tg.tg_pid > 0)
		return dt_set_errmsg(dtp, EDT_PROC, "there is a target already");
	if (pipe2(pfd, O_CLOEXEC) != 0)
		return dt_set_errmsg(dtp, EDT_PROC, "pipe: %s", strerror(errno));
	if ((pid = fork()) < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return dt_set_errmsg(dtp, EDT_PROC, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		char self[16];

		close(pfd[0]);
		/*
		 * Killed when we die, even by SIGKILL, as illumos sets PR_KLC
		 * (kill on last close) on a process it creates.  The kernel
		 * sends it when the thread that forked exits: the caller's
		 * thread must outlive the target (dtrace.h).  If we died
		 * before the prctl, it was too late for it: go now.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
			err = errno != 0 ? errno : ESRCH;
			(void)!write(pfd[1], &err, sizeof(err));
			_exit(127);
		}
		/*
		 * -Z: its libusdt providers may be matched later.  libusdt may be
		 * loaded after our last look (a Python module): its first enable()
		 * then waits for us to attach to libusdt:::provider-enabled (dt_load.c).
		 */
		if (dt_option_isset(dtp, "zdefs")) {
			snprintf(self, sizeof(self), "%d", (int)getpid());
			(void)setenv("USDT_TRACED_PID", self, 1);
		}
		/* stop at the exec, so that its probes are enabled before it runs */
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) == 0)
			execvp(argv[0], argv);
		err = errno;
		(void)!write(pfd[1], &err, sizeof(err));
		_exit(127);
	}
	close(pfd[1]);
	if (read(pfd[0], &err, sizeof(err)) == (ssize_t)sizeof(err)) { /* exec failed */
		close(pfd[0]);
		wait_for(pid, &st, 0);
		return dt_set_errmsg(dtp, EDT_PROC, "%s", strerror(err));
	}
	close(pfd[0]);
	if (wait_for(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		if (kill(pid, SIGKILL) == 0) /* not left behind, traced and stopped */
			wait_for(pid, &st, 0);
		return dt_set_errmsg(dtp, EDT_PROC, "%s did not stop at its exec", argv[0]);
	}
	if (run_to_entry(pid, &st) != 0) {
		if (WIFSTOPPED(st)) { /* stopped, but out of our control */
			kill(pid, SIGKILL);
			wait_for(pid, &st, 0);
		}
		if (WIFEXITED(st))
			return dt_set_errmsg(dtp, EDT_PROC,
					     "exited before its entry point (status %d)",
					     WEXITSTATUS(st));
		return dt_set_errmsg(dtp, EDT_PROC, "killed before its entry point (signal %d)",
				     WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	}
	set_target(dtp, r, pid);
	r->r_tg.tg_child = true;
	return pid;
}

/* Is every thread of pid stopped (state T in /proc/PID/stat)? */
static bool proc_stopped(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p == NULL || (p[1] == ' ' && (p[2] == 'T' || p[2] == 't' || p[2] == 'Z'));
}

int dtrace_proc_grab(dtrace_hdl_t *dtp, int pid)
{
	dt_run_t *r;
	int fd;

	if (dtp == NULL)
		return -1;
	if (pid <= 0)
		return dt_set_errno(dtp, EDT_BADARG);
	if ((r = dt_run_get(dtp)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (r->r_tg.tg_pid > 0)
		return dt_set_errmsg(dtp, EDT_PROC, "there is a target already");
	if ((fd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0)
		return dt_set_errmsg(dtp, EDT_PROC, "failed to grab pid %d: %s", pid,
				     strerror(errno == ESRCH ? ESRCH : errno));
	r->r_tg.tg_pidfd = fd;
	set_target(dtp, r, pid);
	/*
	 * Stopped (every thread) until dtrace_proc_continue(), as illumos
	 * grabs: probes it fires while being enabled would come before BEGIN.
	 */
	if (kill(pid, SIGSTOP) == 0) {
		r->r_tg.tg_stopped = true;
		for (int i = 0; i < 200 && !proc_stopped(pid); i++)
			usleep(1000);
	}
	return 0;
}

int dtrace_proc_continue(dtrace_hdl_t *dtp)
{
	dt_run_t *r;

	if (dtp == NULL)
		return -1;
	if ((r = dtp->dt_run) == NULL || r->r_tg.tg_pid <= 0)
		return dt_set_errno(dtp, EDT_BADARG);
	/* what it maps now, stopped: its addresses keep names if it exits before a drain */
	dt_usym_remember(dtp, r->r_tg.tg_pid);
	if (r->r_tg.tg_child && ptrace(PTRACE_DETACH, r->r_tg.tg_pid, 0, 0) != 0)
		return dt_set_errmsg(dtp, EDT_PROC, "cannot continue pid %d: %s",
				     (int)r->r_tg.tg_pid, strerror(errno));
	if (r->r_tg.tg_stopped) {
		r->r_tg.tg_stopped = false;
		(void)kill(r->r_tg.tg_pid, SIGCONT);
	}
	return 0;
}

int dtrace_proc_exited(dtrace_hdl_t *dtp, int *status)
{
	dt_run_t *r;

	if (dtp == NULL || (r = dtp->dt_run) == NULL || r->r_tg.tg_pid <= 0)
		return 0;
	if (!r->r_tg.tg_exited) {
		if (r->r_tg.tg_child) {
			int st;
			pid_t w = wait_for(r->r_tg.tg_pid, &st, WNOHANG);

			if (w == r->r_tg.tg_pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
				r->r_tg.tg_exited = true;
				r->r_tg.tg_status = st;
			} else if (w < 0 && errno == ECHILD) {
				r->r_tg.tg_exited = true;
				r->r_tg.tg_status = -1;
			}
		} else {
			struct pollfd p = { .fd = r->r_tg.tg_pidfd, .events = POLLIN };

			if (r->r_tg.tg_pidfd < 0 || poll(&p, 1, 0) > 0) {
				r->r_tg.tg_exited = true;
				r->r_tg.tg_status = -1;
			}
		}
	}
	if (r->r_tg.tg_exited && status != NULL)
		*status = r->r_tg.tg_status;
	return r->r_tg.tg_exited;
}

/*
 * The end of the handle's life: a process we created is killed (and
 * reaped), one we grabbed goes on running, as illumos dt_proc_destroy()
 * releases them (PR_KLC for created ones, PR_RLC for grabbed ones).
 * The grabbed one's semaphores fall when the links close.
 */
void dt_proc_release(dt_run_t *r)
{
	dt_target_t *tg = &r->r_tg;

	if (tg->tg_pid <= 0)
		return;
	if (tg->tg_child && !tg->tg_exited) {
		int st;

		(void)kill(tg->tg_pid, SIGKILL);
		if (wait_for(tg->tg_pid, &st, 0) == tg->tg_pid) {
			tg->tg_exited = true;
			tg->tg_status = st;
		}
	}
	if (tg->tg_stopped) { /* grabbed, never continued */
		tg->tg_stopped = false;
		(void)kill(tg->tg_pid, SIGCONT);
	}
}

int dtrace_proc_target(dtrace_hdl_t *dtp)
{
	return dtp != NULL && dtp->dt_run != NULL ? (int)dtp->dt_run->r_tg.tg_pid : 0;
}
