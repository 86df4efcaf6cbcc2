#!/usr/sbin/dtrace -qs
/*
 * Calls of each mini function (by function and file), when the
 * interpreter ends:
 *   dtrace -qs calls.d -c 'mini -n 3 app.mini lib.mini'
 */
mini$target:::function-entry
{
	@calls[copyinstr(arg0), basename(copyinstr(arg1))] = count();
}

END
{
	printa("%-8s %-10s %@8d\n", @calls);
}
