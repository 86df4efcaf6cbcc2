/*
 * MiniDebugInfo: a stripped program whose .symtab is xz-compressed in its
 * .gnu_debugdata section (as Fedora builds them) names its static
 * functions from it; .dynsym's names still count.
 */
/* @setup: ./build.sh */
/* @args: -q -c ./mini */
dbg$target:::fn
{
	ufunc(arg0);
	printf("\n");
	uaddr(arg0 + 2);
	printf("\n");
	exit(0);
}
