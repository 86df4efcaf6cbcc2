/* a built-in variable called as a function */
BEGIN
{
	trace(pid(1));
}
