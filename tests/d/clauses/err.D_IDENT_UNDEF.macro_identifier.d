/* a macro argument that is an identifier is substituted as one, and must be defined */
BEGIN
{
	trace($1);
}
