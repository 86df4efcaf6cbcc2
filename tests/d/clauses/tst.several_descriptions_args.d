/* a clause is checked once per description, so args[0] may have another type for each */
provider myp {
	probe p(int);
	probe q(char *);
};

myp*:::p,
myp*:::q
{
	trace(args[0]);
}
