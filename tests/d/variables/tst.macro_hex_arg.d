/* A numeric macro argument is read like an integer constant, in any base. */
BEGIN
{
	ok = 1 / ($1 == 16);
	ok = 1 / ($2 == 8);
}
