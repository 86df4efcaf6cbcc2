/* A suffix other than u, l, ul, ll or ull is not part of an integer constant. */
BEGIN
{
	x = 10uu;
}
