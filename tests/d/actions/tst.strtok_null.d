/* NULL is defined (inline long NULL = 0), so strtok() can continue a string; so can the constant 0 */
BEGIN
{
	a = strtok("a/b", "/");
	b = strtok(NULL, "/");
	c = strtok(0, "/");
}
