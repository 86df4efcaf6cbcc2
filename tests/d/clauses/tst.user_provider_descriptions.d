/* descriptions of a provider declared here: globbed, with a process ID, with -- in the probe name */
provider myp {
	probe p(int, char *);
	probe query__start(int);
};

myp*:::p
{
	trace(args[0]);
}

myp1234:::query-start
{
	trace(args[0]);
}

myp*::main:query-start
{
	trace(args[0] + 1);
}
