/*
 * execer: forks a child that calls write(-1, before_exec, 0) (it fails:
 * EBADF) with a function's address, waits a second and execs ./execed,
 * another program whose functions are at the same addresses (both are
 * built without PIE); waits for the child, for run.exec.d.  The child is
 * not the -c target, whose mappings dtrace reads again itself when they
 * change.
 */
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int before_exec(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

int main(void)
{
	int (*volatile f)(int) = before_exec;
	pid_t pid = fork();

	if (pid == 0) {
		if (write(-1, (const void *)f, 0) == 0)
			_exit(1);
		sleep(1);
		execl("./execed", "execed", (char *)NULL);
		_exit(1);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return f(1) != 2;
}
