/* func() is an action and may not be used as a value */
BEGIN
{
	x = func(arg0);
}
