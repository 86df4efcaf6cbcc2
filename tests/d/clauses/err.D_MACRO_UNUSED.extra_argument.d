/* a macro argument that the program never references */
BEGIN
{
	trace(1);
}
