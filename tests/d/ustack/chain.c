/*
 * chain: main -> a -> b -> c, and main -> a2 -> c, built -O2
 * -fomit-frame-pointer (build.sh), so that no function keeps a frame
 * pointer and only the unwind tables (.eh_frame) can walk the stack.
 * "./chain N" calls c() 4N times: 3N times through a and b, N times
 * through a2 (i % 4 == 3), so that @[ustack()] = count() has two keys in
 * a 3:1 ratio.  Then it passes c's address to pass_fn() once, for
 * ufunc(arg0).  "./chain N sys" and "./chain N sig" do only what their
 * functions below say.
 *
 * noipa keeps gcc from cloning the functions or turning a call into a
 * jmp (a tail call leaves no frame), and every result is used for the
 * same reason.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile long sink;

__attribute__((noipa)) long c(long x)
{
	sink += x;
	return sink * 3;
}

__attribute__((noipa)) long b(long x)
{
	long r = c(x + 1);

	sink ^= r;
	return r + 1;
}

__attribute__((noipa)) long a(long x)
{
	long r = b(x * 2);

	sink += r;
	return r - 1;
}

__attribute__((noipa)) long a2(long x)
{
	long r = c(x * 5);

	sink += r;
	return r - 2;
}

__attribute__((noipa)) long pass_fn(long (*f)(long), long x)
{
	sink += x;
	return sink + (long)(f != NULL);
}

/* "./chain N sys": getppid() from sys(), for a system call's user stack */
__attribute__((noipa)) long sys(void)
{
	return (long)getppid() + 1;
}

/* "./chain N sig": sig_leaf() called by a signal handler, raise() from sigsite() */
__attribute__((noipa)) long sig_leaf(long x)
{
	sink += x;
	return sink;
}

__attribute__((noipa)) static void on_sig(int sig)
{
	sink += sig_leaf(sig);
}

__attribute__((noipa)) long sigsite(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	return sink + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;
	long i, r = 0;

	if (argc > 2 && strcmp(argv[2], "sys") == 0)
		return sys() == 42;
	if (argc > 2 && strcmp(argv[2], "sig") == 0)
		return sigsite() == 42;

	for (i = 0; i < 4 * n; i++) {
		if (i % 4 == 3)
			r += a2(i);
		else
			r += a(i);
	}
	r += pass_fn(c, i);
	return r == 42;
}
