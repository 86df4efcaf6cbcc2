/* variable assignments may come before speculate(); data actions after it go to the buffer */
syscall::read:entry
{
	self->ts = timestamp;
	this->spec = speculation();
	speculate(this->spec);
	printf("%d %s\n", pid, execname);
	ustack();
}
