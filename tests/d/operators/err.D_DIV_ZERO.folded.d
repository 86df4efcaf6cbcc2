/* A divisor that folds to 0 is caught as well. */
BEGIN
{
	x = 10;
	y = x / (3 - 3);
}
