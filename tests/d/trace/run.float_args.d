/*
 * Floating-point probe arguments (<sys/sdt.h> notes "8f@..." and "4f@..."):
 * args[N] typed double or float by the provider print with %e %f %g %E %G,
 * width and precision, as pfprint_fp does (a float widened to double);
 * arg1 is the double's bits.  The printf lines of the .out are what
 * printf(3) prints for the same values ("./fp_sdt -p", which build_fp.sh
 * writes to fp_sdt.expected): 0, -1.5, 1e300, 0.1, the smallest
 * denormals, -0, infinities and a NaN (glibc spells them inf and nan).
 * trace() of a double or float prints its bits as an integer of its size,
 * as illumos's dt_print_datum (a record has no type).
 */
/* @setup: ./build_fp.sh */
/* @args: -q -c ./fp_sdt */
provider fp {
	probe val(int, double, float);
};

fp$target:::val
{
	printf("%d %f %e %g | %f %e %g | %E %G %10.3f %-12.2e|\n", args[0], args[1], args[1],
	    args[1], args[2], args[2], args[2], args[1], args[2], args[1], args[2]);
}

fp$target:::val
/args[0] < 3/
{
	printf("bits %x ", arg1);
	trace(args[1]);
	printf(" ");
	trace(args[2]);
	printf("\n");
}
