/* += of a pointer to an integer variable: only a pointer may be advanced. */
int *p;

BEGIN
{
	x = 1;
	x += p;
}
