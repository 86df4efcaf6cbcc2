/*
 * USDT arguments given as symbols relative to %rip ("-4@counter(%rip)
 * -8@8+stats(%rip)", as gcc writes a global passed to <sys/sdt.h>'s
 * probes; PostgreSQL's buffer and checkpoint probes have them): read from
 * the probe's address plus the symbol's distance, found in the file.
 */
/* @setup: ./build_ripargs.sh */
/* @args: -q -c ./ripargs */
rip$target:::glob
{
	printf("%d %d\n", arg0, arg1);
}
