/*
 * copyout() and copyoutstr() fault as illumos' DIF_SUBR_COPYOUT does: a
 * bad address on the destination when it cannot be written (unmapped) or
 * when address + size wraps or reaches the kernel's half
 * (dtrace_copycheck), on the source when it cannot be read; more than
 * scratchsize bytes (what copyout() can stage) is out of scratch space.
 * A fault ends the clause: what came before it was done.  BEGIN runs in
 * dtrace itself, whose memory is what these addresses miss.
 */
/* @args: -q -w */
/* @lockdown: refused */
BEGIN
{
	copyout(alloca(4), 16, 4);
}

BEGIN
{
	this->p = alloca(8);
	copyout(this->p, 0x1000, 8);
}

BEGIN
{
	this->p = alloca(8);
	copyout(32, 0x1000, 4);
}

BEGIN
{
	copyoutstr("x", 0xfffffffffffffff0, 2);
}

BEGIN
{
	copyoutstr("x", 0x7ffffffff000, 1);
}

BEGIN
{
	this->p = alloca(8);
	copyout(this->p, 0x1000, 8192);
}

BEGIN
{
	this->p = alloca(8);
	copyout(this->p, 0x1000, 0);
	copyoutstr("", 0x1000, 0);
	printf("nothing to copy, no fault\n");
	exit(0);
}
