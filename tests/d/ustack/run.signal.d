/*
 * A stack through a signal handler: sig_leaf, on_sig, the signal
 * trampoline (libc's __restore_rt, where the handler returns: the walker
 * takes the interrupted registers from the signal frame), then the code
 * the signal interrupted (the raise() system call in libc) and its
 * callers down to _start, as gdb's backtrace shows them (gdb adds a
 * frame for pthread_kill, which tail-calls __pthread_kill_implementation:
 * it is not on the stack).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./chain 1 sig" */
pid$target:a.out:sig_leaf:entry
{
	printf("depth %d", ustackdepth);
	ustack();
}
