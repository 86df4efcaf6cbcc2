/* << requires integer operands, not pointers. */
int *p;

BEGIN
{
	x = p << 1;
}
