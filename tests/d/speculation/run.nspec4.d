/* four speculations live at once (nspec=4): records go to the one their clause names, whatever the order; 2 and 4 committed (4 first), 1 and 3 discarded */
/* @args: -q -x nspec=4 */
BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	d = speculation();
	printf("ids %d %d %d %d\n", a, b, c, d);
}

BEGIN { speculate(a); printf("a %d\n", 1); }
BEGIN { speculate(b); printf("b %d\n", 1); }
BEGIN { speculate(c); printf("c %d\n", 1); }
BEGIN { speculate(d); printf("d %d\n", 1); }
BEGIN { speculate(b); printf("b %d\n", 2); }
BEGIN { speculate(d); printf("d %d\n", 2); }
BEGIN { speculate(a); printf("a %d\n", 2); }
BEGIN { discard(a); }
BEGIN { printf("commit d\n"); }
BEGIN { commit(d); }
BEGIN { discard(c); }
BEGIN { printf("commit b\n"); }
BEGIN { commit(b); }
BEGIN { speculate(b); printf("b %d, after its commit\n", 3); }

BEGIN
{
	exit(0);
}
