/* func, sym, mod, ufunc, usym, umod and uaddr as statements */
profile-997hz
{
	func(arg0);
	sym(arg0);
	mod(arg0);
	ufunc(arg1);
	usym(arg1);
	umod(arg1);
	uaddr(arg1);
}
