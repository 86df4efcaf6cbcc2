/* Reading a variable that was never declared or assigned is an error. */
BEGIN
{
	x = never_set + 1;
}
