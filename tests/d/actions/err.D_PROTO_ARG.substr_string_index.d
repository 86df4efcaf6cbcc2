/* the index of substr() is a string */
BEGIN
{
	trace(substr(execname, "1"));
}
