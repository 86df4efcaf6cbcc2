/* -1 converts to the unsigned int 4294967295, which is not less than 1u: the divisor folds to 0. */
BEGIN
{
	ok = 1 / (-1 < 1u);
}
