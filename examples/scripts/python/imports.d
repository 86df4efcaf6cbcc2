#!/usr/sbin/dtrace -qs
/*
 * The modules a Python 3.11 process imports (found and loaded, not
 * those already in sys.modules), slowest first, in microseconds:
 *   dtrace -qs imports.d -c 'python3 app.py'
 */
python$target:::import-find-load-start
{
	self->ts[copyinstr(arg0)] = timestamp;
}

python$target:::import-find-load-done
/self->ts[copyinstr(arg0)]/
{
	@us[copyinstr(arg0)] = sum((timestamp - self->ts[copyinstr(arg0)]) / 1000);
	self->ts[copyinstr(arg0)] = 0;
}

END
{
	printa("%10@d us  %s\n", @us);
}
