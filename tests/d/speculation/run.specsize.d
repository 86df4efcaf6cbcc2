/* specsize=64: a printf of one integer is a 16-byte record (EPID and tag, then the value), so four fit exactly and the fifth and sixth are speculative drops; the other speculation has its own 64 bytes */
/* @args: -q -x nspec=2 -x specsize=64 */
BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN { speculate(a); printf("a %d\n", 1); }
BEGIN { speculate(a); printf("a %d\n", 2); }
BEGIN { speculate(b); printf("b %d\n", 1); }
BEGIN { speculate(a); printf("a %d\n", 3); }
BEGIN { speculate(a); printf("a %d\n", 4); }
BEGIN { speculate(a); printf("a %d\n", 5); }
BEGIN { speculate(a); printf("a %d\n", 6); }
BEGIN { commit(a); }
BEGIN { commit(b); }

BEGIN
{
	exit(0);
}
