/* The condition of ?: must be scalar. */
BEGIN
{
	x = execname ? 1 : 2;
}
