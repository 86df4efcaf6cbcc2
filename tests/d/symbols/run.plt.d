/*
 * Code with no symbol of its own is named as gdb and objdump name it: a
 * PLT entry as name@plt (from .rela.plt, the entries in order after
 * .plt's resolver stub), the vDSO's functions from the kernel's image
 * (the same in every process: dtrace reads its own).  At take(), arg0 is
 * clock_gettime's PLT entry, arg1 the vDSO's __vdso_clock_gettime, of
 * which clock_gettime is the alias with fewer underscores.
 */
/* @setup: ./build.sh */
/* @args: -q -c ./plt */
pid$target:plt:take:entry
{
	ufunc(arg0);
	printf("\n");
	uaddr(arg0 + 4);
	printf("\n");
	ufunc(arg1);
	printf("\n");
	umod(arg1);
	printf("\n");
}
