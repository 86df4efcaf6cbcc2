/* func, ufunc, sym, usym, mod, umod and uaddr as aggregation keys */
profile-997hz
{
	@kf[func(arg0)] = count();
	@uf[ufunc(arg1)] = count();
	@ks[sym(arg0), mod(arg0)] = count();
	@us[usym(arg1), umod(arg1), uaddr(arg1)] = count();
}
