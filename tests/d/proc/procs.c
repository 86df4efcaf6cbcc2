/*
 * The proc goldens' target: procs WHAT N.
 *   fork N K   N children, each exits with status K
 *   kill N     N children, each killed by SIGKILL
 *   dump N     N children, each killed by SIGQUIT with a core dump (./core,
 *              removed)
 *   exec N     N children exec /bin/true
 *   noexec N   N children exec a path that does not exist (ENOENT), then exit 0
 *   vfork N    N children made by vfork exec /bin/true with execveat
 *   threads N  N threads, created and joined one after another
 *   signal N   one child with a SIGUSR1 handler, sent SIGUSR1 N times
 *   sigwait N  one child takes N SIGUSR2s with sigtimedwait
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void *thread(void *arg)
{
	return arg;
}

static void reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "fork";
	int n = argc > 2 ? atoi(argv[2]) : 1;
	int k = argc > 3 ? atoi(argv[3]) : 0;
	pid_t pid;

	if (strcmp(what, "vfork") == 0) {
		static char *const args[] = { "true", NULL }, *const env[] = { NULL };

		for (int i = 0; i < n; i++) {
			if ((pid = vfork()) == 0) {
				syscall(SYS_execveat, AT_FDCWD, "/bin/true", args, env, 0);
				_exit(1);
			}
			reap(pid);
		}
	} else if (strcmp(what, "dump") == 0) {
		for (int i = 0; i < n; i++) {
			if ((pid = fork()) == 0) {
				struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

				setrlimit(RLIMIT_CORE, &rl);
				raise(SIGQUIT);
				_exit(9);
			}
			reap(pid);
		}
		unlink("core");
	} else if (strcmp(what, "fork") == 0 || strcmp(what, "kill") == 0 ||
		   strcmp(what, "exec") == 0 || strcmp(what, "noexec") == 0) {
		for (int i = 0; i < n; i++) {
			if ((pid = fork()) == 0) {
				if (strcmp(what, "kill") == 0)
					pause();
				if (strcmp(what, "exec") == 0)
					execl("/bin/true", "true", (char *)NULL);
				if (strcmp(what, "noexec") == 0)
					execl("/nonexistent/proc-test", "x", (char *)NULL);
				_exit(k);
			}
			if (strcmp(what, "kill") == 0)
				kill(pid, SIGKILL);
			reap(pid);
		}
	} else if (strcmp(what, "threads") == 0) {
		for (int i = 0; i < n; i++) {
			pthread_t t;

			pthread_create(&t, NULL, thread, NULL);
			pthread_join(t, NULL);
		}
	} else if (strcmp(what, "signal") == 0) {
		sigset_t set, old;
		int fds[2];
		char c;

		/* the child counts n handled signals, then exits */
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, &old);
		if (pipe(fds) != 0)
			return 1;
		if ((pid = fork()) == 0) {
			struct sigaction sa;

			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_usr1;
			sigaction(SIGUSR1, &sa, NULL);
			while (got < n) {
				if (write(fds[1], "r", 1) != 1)
					_exit(1);
				sigsuspend(&old);
			}
			_exit(0);
		}
		for (int i = 0; i < n; i++) {
			if (read(fds[0], &c, 1) != 1)
				return 1;
			kill(pid, SIGUSR1);
		}
		reap(pid);
	} else if (strcmp(what, "sigwait") == 0) {
		sigset_t set;
		int fds[2];
		char c;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR2);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (pipe(fds) != 0)
			return 1;
		if ((pid = fork()) == 0) {
			struct timespec ts = { 5, 0 };

			for (int i = 0; i < n; i++) {
				if (write(fds[1], "r", 1) != 1 ||
				    sigtimedwait(&set, NULL, &ts) != SIGUSR2)
					_exit(1);
			}
			_exit(0);
		}
		for (int i = 0; i < n; i++) {
			if (read(fds[0], &c, 1) != 1)
				return 1;
			kill(pid, SIGUSR2);
		}
		reap(pid);
	}
	return 0;
}
