/* trunc() takes at most two arguments */
BEGIN
{
	@a = count();
	trunc(@a, 1, 2);
}
