/* A void expression cannot be a key. */
BEGIN
{
	a[(void)0] = 1;
}
