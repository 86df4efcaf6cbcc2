/*
 * debugged: fires dbg:::fn(hidden, ra, dlinfo) with hidden a static
 * function (only .symtab names it), ra main's return address (in libc's
 * static __libc_start_call_main, which only libc's debug file names) and
 * libc's dlinfo (which libc's debug file names only with versions,
 * "dlinfo@@GLIBC_2.34", or as ___dlinfo), for
 * run.debugfile.d and friends: build.sh strips copies of it whose .symtab
 * is in a separate file (.gnu_debuglink), or compressed in
 * .gnu_debugdata, or nowhere.  Waits after firing to be killed (dtrace
 * exits at the probe), so that its mappings are there to read.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/sdt.h>
#include <unistd.h>

__attribute__((noinline)) static int hidden_work(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	int (*volatile f)(int) = hidden_work;
	void *volatile d = (void *)dlinfo;

	(void)argv;
	DTRACE_PROBE3(dbg, fn, f, __builtin_return_address(0), d);
	alarm(30);
	pause();
	return f(argc) == 0;
}
