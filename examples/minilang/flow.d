#!/usr/sbin/dtrace -qs
/*
 * The flow of mini function calls, indented by depth as dtrace -F
 * indents C functions: -> at entry, <- at return, with file and line:
 *   dtrace -qs flow.d -c 'mini app.mini lib.mini'
 */
self int depth;

mini$target:::function-entry
{
	printf("%*s-> %s (%s:%d)\n", self->depth * 2, "", copyinstr(arg0),
	    basename(copyinstr(arg1)), arg2);
	self->depth++;
}

mini$target:::function-return
{
	self->depth -= self->depth > 0;
	printf("%*s<- %s\n", self->depth * 2, "", copyinstr(arg0));
}
