/* Two pointers cannot be added. */
int *ip;
int *iq;

BEGIN
{
	x = ip + iq;
}
