#!/usr/sbin/dtrace -qs
/*
 * Calls of each method, by class and method, and the time in each
 * (callees included, microseconds), as hotspot's method probes are read:
 * names are a pointer and a length, copyinstr(ptr, len).
 *   dtrace -qs methods.d -c './vm 1000'
 */
vm$target:::method-entry
{
	self->ts[self->depth++] = timestamp;
}

vm$target:::method-return
/self->depth > 0/
{
	this->cls = copyinstr(arg1, arg2);
	this->m = copyinstr(arg3, arg4);
	self->depth--;
	@calls[this->cls, this->m] = count();
	@us[this->cls, this->m] = sum((timestamp - self->ts[self->depth]) / 1000);
	self->ts[self->depth] = 0;
}

END
{
	printf("%-8s %-8s %8s %10s\n", "CLASS", "METHOD", "CALLS", "TOTAL us");
	printa("%-8s %-8s %@8d %@10d\n", @calls, @us);
}
