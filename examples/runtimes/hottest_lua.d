#!/usr/sbin/dtrace -Zqs
/*
 * The hottest lua functions of a program, by the binding's runtime
 * provider (lua_rt: function-entry with name, file and line): the ten
 * called most, when it ends:
 *   dtrace -Zqs hottest_lua.d -c 'lua5.4 shop.lua'
 */
lua_rt$target:::function-entry
{
	@calls[copyinstr(arg0), basename(copyinstr(arg1)), arg2] = count();
}

END
{
	trunc(@calls, 10);
	printa("%@8d  %s (%s:%d)\n", @calls);
}
