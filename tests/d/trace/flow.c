/*
 * flow: outer() fires flow:::fn-entry, calls inner() twice (each fires
 * fn-entry, mark, fn-return), fires flow:::carpentry (not an entry: the
 * name only ends in "entry") and fn-return; then main fires flow:::entry
 * and sleeps 2 seconds (so that a tracer which exit()s there goes first).
 */
#include <unistd.h>

#include "flow.h"

__attribute__((noinline)) void inner(int d)
{
	FLOW_FN_ENTRY(d);
	FLOW_MARK(d);
	FLOW_FN_RETURN(d);
}

__attribute__((noinline)) void outer(void)
{
	FLOW_FN_ENTRY(0);
	inner(1);
	inner(1);
	FLOW_CARPENTRY();
	FLOW_FN_RETURN(0);
}

int main(void)
{
	outer();
	FLOW_ENTRY();
	sleep(2); /* the tracer exits first */
	return 0;
}
