/*
 * Every function of the executable: lock_first (a lock prefix first, which
 * the kernel refuses a uprobe on) is left out without failing the others;
 * _start fires as the target starts from its entry point.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 3" */
pid$target:a.out::entry
{
	@[probefunc] = count();
}
