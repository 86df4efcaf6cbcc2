/* sizeof folds to a constant, so a divisor built from it is checked too. */
BEGIN
{
	y = 100 / (sizeof (int) - 4);
}
