/* float, double and long double exist as types, with their C sizes. */
BEGIN
{
	ok = 1 / (sizeof (float) == 4);
	ok = 1 / (sizeof (double) == 8);
	ok = 1 / (sizeof (long double) == 16);
}
