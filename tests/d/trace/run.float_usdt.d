/*
 * A double passed through libusdt (its bits in a general register; the
 * note says "8@%rsi", not gcc's "8f@", which bpftrace 0.17's parser
 * refuses) reads as args[1] typed double by the provider definition, and
 * prints with %f %e %g as printf(3) prints 0, -1.5, 1e300, the smallest
 * denormal, -0, infinity and a negative NaN; arg1 is its bits.
 */
/* @setup: ./build_fp_usdt.sh */
/* @args: -Z -q -c ./fp_usdt */
provider fpu {
	probe val(int, double);
};

fpu$target:::val
{
	printf("%d %f %e %g %.3G %x\n", args[0], args[1], args[1], args[1], args[1], arg1);
}
