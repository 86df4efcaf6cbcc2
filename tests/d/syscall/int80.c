/*
 * The compat golden's target: ./int80 N makes N ia32 system calls through
 * int $0x80 (number 20, getpid in the ia32 table, writev in the x86-64
 * one), then N native getpid() calls.  syscall:: probes are the native
 * table's: the ia32 calls must fire none of them.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc == 2 ? atoi(argv[1]) : 0;

	for (int i = 0; i < n; i++) {
		long ret;

		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");
		if (ret <= 0)
			return 1; /* no ia32 emulation (ENOSYS) */
	}
	for (int i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	return 0;
}
