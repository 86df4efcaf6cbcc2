/* a clause body that is not closed at the end of the file */
BEGIN
{
	trace(1);
