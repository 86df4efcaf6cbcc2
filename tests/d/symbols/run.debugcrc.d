/*
 * A debug file whose CRC is not the one .gnu_debuglink records is not
 * the program's (badcrc.debug was changed after the link): its symbols
 * are not used, and hidden_work, which only they name, is an address in
 * badcrc (built without PIE, so that the address is the same each run).
 */
/* @setup: ./build.sh */
/* @args: -q -c ./badcrc */
dbg$target:::fn
{
	ufunc(arg0);
	printf("\n");
	umod(arg0);
	printf("\n");
	exit(0);
}
