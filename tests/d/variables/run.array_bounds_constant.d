/*
 * A constant index outside a declared array compiles, as in illumos (its
 * test suite stores last_cmds[1][4] of an int [int][4] and expects the
 * ERROR probe); Oracle's D refuses it (D_ARR_BOUNDS).  Here, in a
 * variable, it faults when it runs: a bad address, the element's offset
 * in the variable.
 */
#pragma D option quiet

int a[5];
struct s { int v[2][3]; } g;

BEGIN
{
	a[4] = 1;
	trace(a[5]);
}

BEGIN
{
	g.v[1][-1] = 7;
}

BEGIN
{
	printf("a[4] %d, g.v[0][2] %d\n", a[4], g.v[0][2]);
	exit(0);
}

ERROR
{
	printf("ERROR fault %d\n", arg4);
}
