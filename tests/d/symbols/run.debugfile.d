/*
 * A stripped program (no .symtab, only .dynsym) takes its symbols from the
 * debug file its .gnu_debuglink names, next to it (linked.debug), when
 * that file's CRC is the one recorded: hidden_work, a static function,
 * is named.  main's return address is in libc's static
 * __libc_start_call_main, which only libc's debug file names
 * (/usr/lib/debug/.build-id/xx/yyyy.debug, libc6-dbg): libc.so.6 itself
 * has no .symtab.  libc's dlinfo is named without the version that the
 * debug file's .symtab gives it ("dlinfo@@GLIBC_2.34").
 */
/* @setup: ./build.sh */
/* @args: -q -c ./linked */
dbg$target:::fn
{
	ufunc(arg0);
	printf("\n");
	uaddr(arg0 + 2);
	printf("\n");
	ufunc(arg1);
	printf("\n");
	umod(arg1);
	printf("\n");
	ufunc(arg2);
	printf("\n");
	exit(0);
}
