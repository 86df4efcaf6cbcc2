/* BEGIN has no arguments, so args[0] is out of range. */
BEGIN
{
	x = args[0];
}
