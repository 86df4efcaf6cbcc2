#!/usr/sbin/dtrace -qs
/*
 * One request followed from the language into the kernel: the system
 * calls each request made, by request and call, with its time and its
 * compile time:
 *   dtrace -qs request_syscalls.d -c 'mini -n 2 app.mini lib.mini'
 */
mini$target:::request-start
{
	self->req = arg0;
	self->start = timestamp;
	self->compile = 0;
}

mini$target:::compile-start
/self->req/
{
	self->cts = timestamp;
}

mini$target:::compile-done
/self->req && self->cts/
{
	self->compile += timestamp - self->cts;
	self->cts = 0;
}

syscall:::entry
/self->req/
{
	@calls[self->req, probefunc] = count();
}

mini$target:::request-done
/self->req/
{
	printf("request %d: status %d, %d us, compiling %d us\n", arg0, arg2,
	    (timestamp - self->start) / 1000, self->compile / 1000);
	self->req = 0;
}

END
{
	printa("request %d %-16s %@d\n", @calls);
}
