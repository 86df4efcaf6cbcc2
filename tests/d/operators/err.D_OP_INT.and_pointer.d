/* Bitwise & requires integer operands. */
char *p;

BEGIN
{
	x = p & 0xf;
}
