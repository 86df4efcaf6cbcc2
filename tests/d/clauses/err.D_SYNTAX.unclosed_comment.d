/* a comment that is not closed */
BEGIN
{
	trace(1); /* not closed
}
