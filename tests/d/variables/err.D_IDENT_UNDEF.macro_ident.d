/* A macro argument that is an identifier names a variable, which must exist. */
BEGIN
{
	x = $1;
}
