/* Static probes made by dtrace -h/-G, traced with -c: exact counts and values. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 1000" */
uint64_t total, sq;

trig$target:::tick { n++; total += arg0; sq += arg2; }
trig$target:::tick /arg0 == 999/ { printf("last %d %s %d\n", arg0, copyinstr(arg1), arg2); }
trig$target:::done { printf("n %d total %d sq %d done(%d)\n", n, total, sq, arg0); }
