/*
 * Addresses named as illumos names them: ufunc() and usym() give the
 * function (without an offset), uaddr() the function and the offset,
 * umod() the object; a pointer into libc names libc's function by the
 * name a user calls it (malloc, not one of its aliases).  As aggregation
 * keys ufunc() and umod() merge the addresses of one function and one
 * object: 4 firings at two addresses in work2() make one key.  printf's
 * %A names an address of the target.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./usym 4" */
usym$target:::ptr
/!done/
{
	ufunc(arg0);
	usym(arg1);
	uaddr(arg1);
	umod(arg1);
	ufunc(arg2);
	umod(arg2);
	printf("\n%A %A\n", arg1, arg2);
	done = 1;
}

usym$target:::ptr
{
	@f[ufunc(arg1)] = count();
	@a[uaddr(arg1)] = count();
	@m[umod(arg1), umod(arg2)] = count();
}

END
{
	printa(@f);
	printa(@a);
	printa(@m);
	printa("%A %@d\n", @f);
}
