/* keys from global, thread-local and clause-local variables and from string functions */
syscall::open:entry
{
	self->path = copyinstr(arg0);
	this->len = strlen(self->path);
	@[basename(self->path), this->len] = count();
	@bydir[dirname(self->path)] = sum(this->len);
}
