/* A scalar array variable may have several dimensions (Guide: Multi-Dimensional Arrays, int a[12][34]). */
int a[12][34];

BEGIN
{
	x = a[0][1];
	ok = 1 / (sizeof (a) == 12 * 34 * 4);
	ok = 1 / (sizeof (a[0]) == 34 * 4);
}
