/*
 * A char * argument of a provider used as a string: compared, measured and
 * joined, each read from the process (string comparison did; strlen and
 * strjoin gave the kernel's string copy a user address, and 0 or "").
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 3" */
provider trig {
	probe tick(int i, const char *name, long sq);
};

trig$target:::tick
{
	printf("%d %d %s %d\n", args[0], strlen(args[1]), strjoin(args[1], "!"),
	    args[1] == "beta");
}
