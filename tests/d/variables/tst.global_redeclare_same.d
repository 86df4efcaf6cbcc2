/* Declaring a global twice with the same type is allowed. */
int twice;
int twice;

BEGIN
{
	twice = 3;
}
