/*
 * A clause's code is made once for all its descriptions, so args[] must
 * have the same types in each (illumos compiles it once per description
 * and accepts this): p's args[0] is an int, q's a char *.
 */
provider myp {
	probe p(int);
	probe q(char *);
};

myp*:::p,
myp*:::q
{
	trace(args[0]);
}
