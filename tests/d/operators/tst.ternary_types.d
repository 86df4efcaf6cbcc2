/* The arms of ?: get the usual arithmetic conversions. */
BEGIN
{
	ok = 1 / (sizeof (pid ? 1 : 2L) == 8);
	ok = 1 / (sizeof (pid ? "a" : "b") == 256);
}
