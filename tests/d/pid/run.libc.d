/*
 * A library's function by its base name, by the base name cut after .so
 * (as illumos matches libc.so.1 by libc.so), and by a glob on its path:
 * getpid() is called 6 times.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 6" */
pid$target:libc.so.6:getpid:entry
{
	@base = count();
}

pid$target:libc.so:getpid:entry
{
	@so = count();
}

pid$target:/*/libc.so.6:getpid:entry
{
	@path = count();
}

pid$target:libc.so.6:getpid:return
/arg1 == pid/
{
	@ret = count();
}

END
{
	printa("libc.so.6: %@d\n", @base);
	printa("libc.so: %@d\n", @so);
	printa("/*/libc.so.6: %@d\n", @path);
	printa("returned the pid: %@d\n", @ret);
}
