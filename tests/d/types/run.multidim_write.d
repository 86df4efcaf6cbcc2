/*
 * An element of a multi-dimensional scalar array is assigned like any
 * variable; a run-time index outside its dimension faults even where the
 * offset would stay inside the array (a[0][34] is not a[1][0]).
 */
/* @args: -q */
int a[12][34];

BEGIN
{
	a[0][1] = 5;
	a[11][33] = a[0][1] + 1;
	a[1][0] += 3;
	a[1][0]++;
	printf("%d %d %d %d\n", a[0][1], a[11][33], a[1][0], a[11][32]);
}

BEGIN
{
	j = 34;
	a[0][j] = 9;
}

BEGIN
{
	printf("a[1][0] %d\n", a[1][0]);
	exit(0);
}
