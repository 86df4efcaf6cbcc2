/* a function has no size; a pointer to it has 8 bytes */
BEGIN
{
	ok = sizeof (int (*)(int));
	bad = sizeof (int (int));
}
