#!/usr/sbin/dtrace -Zqs
/*
 * The hottest Lua functions of a program, by the binding's runtime
 * provider (lua_rt: function-entry with name, file and line): the ten
 * called most, when it ends.  C functions (file "[C]") are traced too,
 * but left out here: the binding's own calls made while the hook comes
 * would take the places of functions called once.
 *   dtrace -Zqs hottest_lua.d -c 'lua5.4 shop.lua'
 */
lua_rt$target:::function-entry
/copyinstr(arg1) != "[C]"/
{
	@calls[copyinstr(arg0), basename(copyinstr(arg1)), arg2] = count();
}

END
{
	trunc(@calls, 10);
	printa("%@8d  %s (%s:%d)\n", @calls);
}
