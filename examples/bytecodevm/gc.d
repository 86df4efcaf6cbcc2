#!/usr/sbin/dtrace -qs
/*
 * Garbage collections: how many, how long (a quantize in microseconds),
 * objects freed in all and live after the last one:
 *   dtrace -qs gc.d -c './vm 1000'
 */
vm$target:::gc-begin
{
	self->ts = timestamp;
}

vm$target:::gc-end
/self->ts/
{
	@us = quantize((timestamp - self->ts) / 1000);
	@n = count();
	@freed = sum(arg0);
	@live = max(arg1);
	self->ts = 0;
}

END
{
	printa("collections %@d, freed %@d\n", @n, @freed);
	printa("live after a collection: at most %@d\n", @live);
	printa(@us);
}
