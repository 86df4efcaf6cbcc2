/* args[] takes one index */
provider myp {
	probe p(int, int);
};

myp*:::p
{
	trace(args[0, 1]);
}
