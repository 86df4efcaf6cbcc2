/* a negative args[] index */
provider myp {
	probe p(int);
};

myp*:::p
{
	trace(args[-1]);
}
