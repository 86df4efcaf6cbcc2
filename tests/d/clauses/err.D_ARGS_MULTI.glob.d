/* a globbed description matches probes whose arguments have different types */
provider myp {
	probe p(int);
	probe q(char *);
};

myp*:::
{
	trace(args[0]);
}
