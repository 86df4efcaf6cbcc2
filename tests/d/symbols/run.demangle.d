/*
 * C++ functions are named as a user writes them (c++filt's names):
 * __cxa_demangle'd, with the class template's argument, the namespace and
 * "(anonymous namespace)".  At the pid probes of their entries the PC
 * is the function's first instruction; at cxx:::fn the
 * arguments are pointers to two of them.  ufunc() names the function,
 * uaddr() one byte in, and as an aggregation key ufunc() merges by the
 * demangled function.  (uregs[36] is R_RIP: no regs.d defines R_PC yet.)
 */
/* @setup: ./build.sh */
/* @args: -q -c ./cxx */
pid$target::_ZN3geo3BoxIdE1cEd:entry,
pid$target::_ZN3geo3BoxIdE1bEd:entry,
pid$target::_ZN12_GLOBAL__N_11aEl:entry
{
	printf("%s:", probefunc);
	ufunc(uregs[36]);
	printf("\n");
	@[ufunc(uregs[36] + 1)] = count();
}

cxx$target:::fn
{
	ufunc(arg0);
	printf("\n");
	ufunc(arg1);
	printf("\n");
	uaddr(arg0 + 1);
	printf("\n");
	umod(arg1);
	printf("\n");
	exit(0);
}
