/* a thread-local variable: set at entry, tested in a predicate, read and freed at return */
syscall::read:entry
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	trace(timestamp - self->ts);
	self->ts = 0;
}
