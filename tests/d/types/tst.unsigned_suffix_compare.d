/* A u suffix makes the comparison unsigned: -1 converts to a large value. */
BEGIN
{
	ok = 1 / ((-1 < 0u) == 0);
	ok = 1 / ((-1 < 0) == 1);
	ok = 1 / ((-1L > 0UL) == 1);
}
