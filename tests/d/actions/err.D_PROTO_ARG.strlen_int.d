/* strlen() of an integer */
BEGIN
{
	trace(strlen(pid));
}
