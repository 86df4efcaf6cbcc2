/* Built-in variables cannot be incremented. */
BEGIN
{
	timestamp++;
}
