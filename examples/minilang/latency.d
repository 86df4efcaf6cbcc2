#!/usr/sbin/dtrace -qs
/*
 * Time spent in each mini function, callees included, in microseconds
 * (a quantize per function), when the interpreter ends:
 *   dtrace -qs latency.d -c 'mini -n 10 app.mini lib.mini'
 */
mini$target:::function-entry
{
	self->ts[self->depth++] = timestamp;
}

mini$target:::function-return
/self->depth > 0/
{
	self->depth--;
	@us[copyinstr(arg0)] = quantize((timestamp - self->ts[self->depth]) / 1000);
	self->ts[self->depth] = 0;
}
