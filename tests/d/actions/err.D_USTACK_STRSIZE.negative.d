/* the string size given to ustack() may not be negative */
BEGIN
{
	ustack(5, -1);
}
