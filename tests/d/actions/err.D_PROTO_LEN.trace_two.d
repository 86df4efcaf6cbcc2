/* trace() takes exactly one argument */
BEGIN
{
	trace(pid, tid);
}
