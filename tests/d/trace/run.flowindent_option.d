/*
 * #pragma D option flowindent is -F; dtrace(1) prints the flow header and
 * column under -q too (chew does not test g_quiet there), and, quiet, no
 * newline after a record (chewrec).
 * @setup: ./build_flow.sh
 * @args: -q -c ./flow
 */
#pragma D option flowindent

flow$target:::fn-entry,
flow$target:::fn-return
{
	printf("d=%d\n", arg0);
}
