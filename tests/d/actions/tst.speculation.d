/* speculation(), speculate() first in its clause, commit() and discard() in their own clauses */
syscall::open:entry
{
	self->spec = speculation();
}

syscall::open:entry
/self->spec/
{
	speculate(self->spec);
	printf("%s\n", copyinstr(arg0));
	trace(arg1);
	stack();
}

syscall::open:return
/self->spec && errno != 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::open:return
/self->spec && errno == 0/
{
	discard(self->spec);
	self->spec = 0;
}
