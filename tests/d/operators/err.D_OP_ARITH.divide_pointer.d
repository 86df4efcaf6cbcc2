/* / requires arithmetic operands; pointers are not. */
int *p;

BEGIN
{
	x = p / 2;
}
