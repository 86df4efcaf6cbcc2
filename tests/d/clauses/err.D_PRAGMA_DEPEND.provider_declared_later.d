/* as in DTrace, the provider must be known where the pragma is: not declared later */
#pragma D depends_on provider myp

provider myp {
	probe p(int);
};

myp*:::p
{
	trace(args[0]);
}
