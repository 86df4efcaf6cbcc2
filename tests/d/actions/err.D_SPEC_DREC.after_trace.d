/* speculate() after a data-recording action */
BEGIN
{
	trace(pid);
	speculate(1);
}
