/* two statements without ';' between them */
BEGIN
{
	trace(1)
	trace(2);
}
