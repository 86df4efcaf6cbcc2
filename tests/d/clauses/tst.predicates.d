/* predicates: comparisons, logical operators, variables, strings, division and no predicate */
syscall::read:entry
/pid == 1234 && execname == "sshd" || tid != 0/
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@[execname] = quantize(timestamp - self->ts);
	self->ts = 0;
}

syscall::write:entry
/arg2 / 2 > 100 ^^ !(arg0 == 1)/
{
	trace(arg2);
}

syscall::write:return
/(arg0 & 0xff) != 0 ? 1 : 0/
{
	trace(arg0);
}

syscall::close:entry
{
	trace(arg0);
}
