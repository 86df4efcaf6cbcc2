/* . applies to a struct or union, not to an int. */
BEGIN
{
	x = 1;
	y = x.a;
}
