#!/usr/sbin/dtrace -Zqs
/*
 * The hottest python functions of a program, by the binding's runtime
 * provider (python_rt: function-entry with name, file and line): the ten
 * called most, when it ends:
 *   dtrace -Zqs hottest_python.d -c 'python3 shop.py'
 */
python_rt$target:::function-entry
{
	@calls[copyinstr(arg0), basename(copyinstr(arg1)), arg2] = count();
}

END
{
	trunc(@calls, 10);
	printa("%@8d  %s (%s:%d)\n", @calls);
}
