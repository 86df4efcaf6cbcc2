/*
 * The group golden's target: ./calls N M K makes N getpid(), M getppid()
 * and K gettid() system calls (through syscall(2): no library caches them).
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	for (int i = atoi(argv[1]); i > 0; i--)
		(void)syscall(SYS_getpid);
	for (int i = atoi(argv[2]); i > 0; i--)
		(void)syscall(SYS_getppid);
	for (int i = atoi(argv[3]); i > 0; i--)
		(void)syscall(SYS_gettid);
	return 0;
}
