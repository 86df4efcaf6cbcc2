/*
 * trace() of a struct read from the process: *p and p->m, printed by size
 * as run.trace_structs.d says (which has the faulting address).  ./trigger
 * 4's tick 2 passes "gamma": five printable bytes and no NUL, a string,
 * read whole and as the member at offset 2 of a struct placed 2 bytes
 * before it (what precedes it is the compiler's layout, never read).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 4" */
struct five {
	char s[5];
};

struct outer {
	char pad[2];
	struct five in;
};

trig$target:::tick
/arg0 == 2/
{
	trace(*(struct five *)arg1);
	printf("|");
	trace(((struct outer *)(arg1 - 2))->in);
	printf("|\n");
}
