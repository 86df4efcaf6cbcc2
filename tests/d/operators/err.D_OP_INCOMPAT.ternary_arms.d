/*
 * The arms of ?: must have compatible types: a string and an integer other
 * than the constant 0 (NULL, which illumos dt_node_is_ptrcompat() accepts)
 */
BEGIN
{
	x = pid > 0 ? "positive" : 1;
}
