/*
 * ucaller is the caller of the function the probe is in (illumos's
 * DIF_VAR_UCALLER: the user stack's second PC); the program passes the
 * return address it sees.  curthread is the thread's kernel address,
 * caller 0 (no probe here is in a kernel function).  cwd is the
 * directory the program is in, as getcwd() has it: its own, the root, ten
 * levels below its own, across mounts (proc, sysfs, tmpfs, devtmpfs).
 * uregs[] are the registers at the probe.
 */
/* @setup: ./build_whereami.sh */
/* @args: -q -c ./whereami */
wh$target:::site
{
	printf("%d %d %d %d %d\n", arg1, ucaller == arg0, ucaller != 0, caller,
	    (uintptr_t)curthread > 0xffff000000000000);
}

/*
 * uregs[]: the pc (36, R_RIP) in site(), the stack pointer (39, R_RSP)
 * near its local (a leaf function's local may be in the 128 bytes under
 * it, the red zone), their i386 aliases (14 EIP, 7 ESP, 17 UESP); the fs
 * base (45) is the thread's pthread_self(), as glibc sets it; the data
 * segment selectors (0 to 3, 41 to 44) are null in a 64-bit process
 */
wh$target:::site
{
	printf("%d %d %d %d %d\n", uregs[36] - arg2 < 64, uregs[39] - 128 <= arg3,
	    arg3 < uregs[39] + 256, uregs[36] == uregs[14] && uregs[39] == uregs[17],
	    uregs[7] == uregs[39] && uregs[36] != uregs[39]);
	printf("%d %d\n", uregs[45] == arg4,
	    uregs[0] + uregs[1] + uregs[2] + uregs[3] + uregs[41] + uregs[42] + uregs[43] + uregs[44]);
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
