/* descriptions whose probes type args[] the same may share a clause that uses it */
provider myp {
	probe p(int, char *);
	probe q(int, char *);
};

myp*:::p,
myp*:::q
{
	trace(args[0]);
	trace(args[1]);
}
