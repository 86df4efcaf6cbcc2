#!/usr/sbin/dtrace -qs
/*
 * Latency of each kind of query (its first word) in microseconds, with
 * counts and errors, when dtrace ends:
 *   dtrace -qs latency.d -c './qserver /tmp/q.sock'
 */
qserver$target:::query-start
{
	self->ts = timestamp;
}

qserver$target:::query-done
/self->ts/
{
	this->kind = strtok(copyinstr(arg2), " ");
	@us[this->kind] = quantize((timestamp - self->ts) / 1000);
	@n[this->kind] = count();
	@errors[this->kind] = sum(arg3);
	@rows[this->kind] = sum(arg4);
	self->ts = 0;
}

END
{
	printf("%-10s %8s %8s %8s\n", "QUERY", "COUNT", "ERRORS", "ROWS");
	printa("%-10s %@8d %@8d %@8d\n", @n, @errors, @rows);
	printa(@us);
}
