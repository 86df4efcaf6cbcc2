/* a global variable called as a function */
BEGIN
{
	x = 1;
	x();
}
