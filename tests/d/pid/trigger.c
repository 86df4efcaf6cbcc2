/*
 * The pid provider's target: many() called N times (argv[1]), work() 2N
 * times (N through tailcall), getpid() and memcpy() (777 bytes) N times, and functions in assembly
 * whose bytes the tests know: align_me (a 10-byte movabs, then ret at
 * 0xa), undecodable (an invalid opcode jumped over: its return probe is a
 * uretprobe), lock_first (a lock prefix first: the kernel takes no uprobe
 * there; never called) and tailcall (it jumps to work() at 0xa: a return
 * site).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__asm__(".text\n"
	".globl align_me\n.type align_me,@function\nalign_me:\n"
	"\tmovabs $0x1122334455667788, %rax\n"
	"\tret\n"
	".size align_me, .-align_me\n"
	".globl undecodable\n.type undecodable,@function\nundecodable:\n"
	"\tmov $42, %eax\n"
	"\tjmp 1f\n"
	"\t.byte 0x06\n" /* push %es: no such instruction in 64-bit mode */
	"1:\tret\n"
	".size undecodable, .-undecodable\n"
	".globl lock_first\n.type lock_first,@function\nlock_first:\n"
	"\tlock incl (%rdi)\n"
	"\tret\n"
	".size lock_first, .-lock_first\n"
	".globl tailcall\n.type tailcall,@function\ntailcall:\n"
	"\tmov $40, %edi\n"
	"\tmov $2, %esi\n"
	"\tjmp work\n" /* at 0xa: a return site of tailcall */
	".size tailcall, .-tailcall\n");

long align_me(void);
int undecodable(void);
void lock_first(int *);
int tailcall(void);

__attribute__((noinline)) int work(int a, int b)
{
	__asm__ volatile("" ::: "memory");
	return a + b;
}

__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g,
				    long h)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + d + e + f + g + h;
}

/* through a pointer, so that the compiler does not inline it */
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

int main(int argc, char **argv)
{
	static char from[777], to[777];
	int n = argc > 1 ? atoi(argv[1]) : 1;
	long s = 0;

	for (int i = 0; i < n; i++) {
		s += work(40, 2);
		s += many(1, 2, 3, 4, 5, 6, 7, 8);
		s += getpid() > 0;
		s += align_me() != 0;
		s += undecodable();
		s += tailcall();
		s += copy(to, from, sizeof(to)) == to;
	}
	if (argc > 2)
		lock_first(NULL);
	return s == 0;
}
