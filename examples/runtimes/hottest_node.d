#!/usr/sbin/dtrace -Zqs
/*
 * The hottest JS functions of a program, by the binding's runtime
 * provider (node_rt: function-entry of the functions dtrace.wrap() and
 * dtrace.instrument() wrap, with name, file and line): the ten
 * called most, when it ends:
 *   dtrace -Zqs hottest_node.d -c 'node shop.js'
 */
node_rt$target:::function-entry
{
	@calls[copyinstr(arg0), basename(copyinstr(arg1)), arg2] = count();
}

END
{
	trunc(@calls, 10);
	printa("%@8d  %s (%s:%d)\n", @calls);
}
