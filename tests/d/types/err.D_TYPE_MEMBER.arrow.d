/* '->' names a member the pointed-to union does not have. */
union num {
	int i;
	long l;
};

union num *np;

BEGIN
{
	v = np->c;
}
