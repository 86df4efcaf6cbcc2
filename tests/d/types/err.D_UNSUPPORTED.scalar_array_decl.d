/* A declared scalar array has a fixed size and takes integer indexes. */
int vals[5];
char name[16];

BEGIN
{
	vals[0] = 1;
	vals[4] = vals[0] + 1;
	x = name[3];
	ok = 1 / (sizeof (vals) == 20);
	ok = 1 / (sizeof (name) == 16);
}
