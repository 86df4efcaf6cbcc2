/* strlen() without its argument */
BEGIN
{
	trace(strlen());
}
