/*
 * The pid provider finds functions where stacks find names: ./linked is
 * stripped (no .symtab), its .symtab in linked.debug by .gnu_debuglink,
 * so main is a probe only through that; libc.so.6 has no .symtab either,
 * and its static __libc_start_call_main is a probe through libc's debug file
 * (libc6-dbg, by build-id).  __libc_start_main, which libc's debug file
 * names with its versions (__libc_start_main@@GLIBC_2.34 and
 * __libc_start_main@GLIBC_2.2.5, one address), is one probe without them.
 */
/* @setup: ./build.sh */
/* @args: -q -c ./linked */
pid$target:libc.so.6:__libc_start_main:entry,
pid$target:libc.so.6:__libc_start_call_main:entry,
pid$target:a.out:main:entry
{
	printf("%s:%s\n", probemod, probefunc);
}

pid$target:libc.so.6:alarm:entry
{
	printf("%s:%s %d\n", probemod, probefunc, arg0);
	exit(0);
}
