/*
 * ustack() at c's entry in a program built -O2 -fomit-frame-pointer (no
 * function keeps a frame pointer; main uses rbp as a plain register):
 * c, b, a, main, __libc_start_call_main, __libc_start_main, _start, each
 * a return address named module`function+0xoffset (c's own PC, at its
 * first byte, without an offset), indented 14 as illumos prints a stack;
 * ustackdepth counts the same 7 frames.  The offsets are those gdb's
 * backtrace gives at the same point.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./chain 1" */
pid$target:a.out:c:entry
/!done/
{
	printf("depth %d", ustackdepth);
	ustack();
	done = 1;
}
