/* an element of a multi-dimensional scalar array is assigned like any variable */
int a[12][34];

BEGIN
{
	a[0][1] = 5;
	a[11][33] = a[0][1] + 1;
}
