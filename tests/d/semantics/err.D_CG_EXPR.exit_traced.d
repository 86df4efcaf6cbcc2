/* exit() is an action, not a value to trace */
BEGIN
{
	trace(exit(0));
}
