/* stack() is an action and may not be used as a value */
BEGIN
{
	trace(stack());
}
