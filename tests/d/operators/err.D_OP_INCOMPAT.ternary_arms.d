/* The arms of ?: must have compatible types. */
BEGIN
{
	x = pid > 0 ? "positive" : 0;
}
