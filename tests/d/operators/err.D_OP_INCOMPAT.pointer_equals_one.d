/* A pointer compares only with the constant 0, not with another integer constant. */
int *p;

BEGIN
{
	a = p == 1;
}
