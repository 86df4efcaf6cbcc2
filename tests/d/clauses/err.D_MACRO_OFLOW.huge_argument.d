/* an integer macro argument too large for 64 bits */
BEGIN
{
	trace($1);
}
