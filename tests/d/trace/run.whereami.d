/*
 * ucaller is the caller of the function the probe is in (illumos's
 * DIF_VAR_UCALLER: the user stack's second PC); the program passes the
 * return address it sees.  curthread is the thread's kernel address,
 * caller 0 (no probe here is in a kernel function).  cwd is the
 * directory the program is in, as getcwd() has it: its own, the root, ten
 * levels below its own, across mounts (proc, sysfs, tmpfs, devtmpfs).
 */
/* @setup: ./build_whereami.sh */
/* @args: -q -c ./whereami */
wh$target:::site
{
	printf("%d %d %d %d %d\n", arg1, ucaller == arg0, ucaller != 0, caller,
	    curthread > 0xffff000000000000);
}

wh$target:::site
/arg1 == 1/
{
	self->t = curthread;
}

wh$target:::site
/arg1 == 2/
{
	printf("same thread %d\n", self->t == curthread);
}

wh$target:::dir
{
	this->want = copyinstr(arg0);
	this->deep = strstr(cwd, "/deep/");
	this->proc = strstr(cwd, "/proc/") == cwd;
	printf("%d %s\n", cwd == this->want,
	    this->deep != NULL ? this->deep :
	    this->proc ? dirname(cwd) :
	    this->want == "/" || strstr(this->want, "/sys") == this->want ||
	    strstr(this->want, "/dev") == this->want ? cwd : "(the test's directory)");
}
