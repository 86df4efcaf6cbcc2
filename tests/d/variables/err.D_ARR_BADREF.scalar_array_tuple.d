/* A scalar array takes one index, not a tuple. */
int vals[4];

BEGIN
{
	vals[1, 2] = 0;
}
