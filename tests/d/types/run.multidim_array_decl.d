/* A scalar array variable may have several dimensions (Guide: Multi-Dimensional Arrays, int a[12][34]). */
/* @args: -q */
int a[12][34];

BEGIN
{
	x = a[0][1];
	ok = 1 / (sizeof (a) == 12 * 34 * 4);
	ok = 1 / (sizeof (a[0]) == 34 * 4);
	i = 11;
	j = 33;
	a[i][j] = 1134;
	a[i - 1][j] = 1034;
	a[0][j] = 34;
	a[1][0] = 100;
	printf("%d %d %d %d %d %d %d\n", x, a[11][33], a[10][33], a[0][33], a[1][0], a[0][32], a[11][32]);
	exit(0);
}
