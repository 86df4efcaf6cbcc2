#!/usr/sbin/dtrace -qs
/*
 * Queries slower than $1 milliseconds, as they finish:
 *   dtrace -qs slow.d 100 -p $(pgrep -n qserver)
 */
qserver$target:::query-start
{
	self->ts = timestamp;
}

qserver$target:::query-done
/self->ts && timestamp - self->ts > $1 * 1000000/
{
	printf("%5d ms  conn %d  query %d: %s\n", (timestamp - self->ts) / 1000000, arg0, arg1,
	    copyinstr(arg2));
}

qserver$target:::query-done
{
	self->ts = 0;
}
