/* copyin, copyinstr with and without a length, copyinto, alloca and bcopy */
syscall::open:entry
{
	this->path = copyinstr(arg0);
	this->head = copyinstr(arg0, 8);
	this->p = (int *)copyin(arg1, sizeof (int));
	trace(*this->p);
	this->buf = alloca(16);
	copyinto(arg0, 16, this->buf);
	bcopy(this->buf, alloca(16), 16);
}
