/* #pragma D depends_on a provider declared earlier in the program */
provider myp {
	probe p(int);
};

#pragma D depends_on provider myp

myp*:::p
{
	trace(args[0]);
}
