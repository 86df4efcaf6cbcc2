/*
 * whereami: fires wh:::site(ret, depth) in a function called from main
 * (depth 1) and from a function main calls (depth 2), ret being the
 * function's own return address: what ucaller must be; and the
 * function's address and a local's, near which uregs[R_PC] and
 * uregs[R_SP] must be, and pthread_self(), the thread's control block,
 * where x86-64 glibc points the fs base (uregs[UR_FSBASE]).  Then goes to
 * directories (its own, the root, a deep one under it, others across
 * mounts) and fires wh:::dir(getcwd()) in each: what cwd must be
 * (run.whereami.d).  Built with frame pointers, which the user stack walk
 * follows.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "whereami.h"

__attribute__((noinline)) static void site(int depth)
{
	volatile int local = depth;

	WH_SITE((long)__builtin_return_address(0), local, (long)site, (long)&local,
		(long)pthread_self());
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void outer(void)
{
	site(2);
	__asm__ volatile("" ::: "memory");
}

static void here(const char *dir)
{
	char buf[4096];

	if (chdir(dir) != 0 || getcwd(buf, sizeof(buf)) == NULL) {
		perror(dir);
		return;
	}
	WH_DIR(buf);
}

int main(void)
{
	static const char *const dirs[] = { ".", "/", "deep/a/b/c/d/e/f/g/h/i/j", "/proc/self",
					    "/sys/kernel", "/dev/shm", "/dev", "/" };
	char top[4096];

	site(1);
	outer();
	if (getcwd(top, sizeof(top)) == NULL)
		return 1;
	mkdir("deep", 0755);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (i == 2 && chdir(top) == 0) {
			char p[64] = "deep";

			for (const char *c = "abcdefghij"; *c != '\0'; c++) {
				snprintf(p + strlen(p), sizeof(p) - strlen(p), "/%c", *c);
				mkdir(p, 0755);
			}
		}
		here(dirs[i]);
	}
	return 0;
}
