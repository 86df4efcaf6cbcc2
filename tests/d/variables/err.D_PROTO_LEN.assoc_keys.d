/* An associative array is always indexed with the same number of keys. */
BEGIN
{
	a[1] = 1;
	a[1, 2] = 2;
}
