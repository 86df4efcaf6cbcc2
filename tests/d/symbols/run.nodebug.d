/*
 * A stripped program with no debug file anywhere: its static function is
 * an address in it (built without PIE, so that the address is the same
 * each run), and libc's functions are still named by libc's debug file.
 */
/* @setup: ./build.sh */
/* @args: -q -c ./bare */
dbg$target:::fn
{
	ufunc(arg0);
	printf("\n");
	ufunc(arg1);
	printf("\n");
	exit(0);
}
