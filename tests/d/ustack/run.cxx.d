/*
 * ustack() in C++ built -O2 -fomit-frame-pointer: the names are
 * demangled (a template's member, an anonymous namespace's function),
 * and the walk goes through main to _start as in C.  The probe is a USDT
 * probe inside geo::Box<double>::c, so its frame has an offset.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./cxx 3" */
cxx$target:::leaf
/!done/
{
	ustack();
	done = 1;
}

cxx$target:::leaf
{
	@[ustack()] = count();
}
