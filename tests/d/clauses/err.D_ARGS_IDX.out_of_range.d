/* args[2] of a probe that has two arguments */
provider myp {
	probe p(int, char *);
};

myp*:::p
{
	trace(args[2]);
}
