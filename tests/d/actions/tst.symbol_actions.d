/* func, sym and mod (kernel addresses) as statements: not yet (ufunc and the others are) */
profile-997hz
{
	func(arg0);
	sym(arg0);
	mod(arg0);
}
