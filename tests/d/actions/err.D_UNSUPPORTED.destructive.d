/* destructive actions compile with -e: raise, stop, system, copyout, copyoutstr, chill */
#pragma D option destructive

syscall::kill:entry
/arg1 == 0/
{
	raise(9);
	stop();
}

syscall::write:entry
/execname == "victim"/
{
	system("echo %s wrote %d bytes", execname, arg2);
	system("date");
	this->buf = alloca(4);
	copyout(this->buf, arg1, 4);
	copyoutstr("hello", arg1, 6);
	chill(1000);
}
