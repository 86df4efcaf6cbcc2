/* An associative array may not be read as a scalar. */
BEGIN
{
	tab[1] = 1;
	x = tab;
}
