/* A declared scalar array has a fixed size and takes integer indexes. */
/* @args: -q */
int vals[5];
char name[16];

BEGIN
{
	vals[0] = 1;
	vals[4] = vals[0] + 1;
	x = name[3];
	ok = 1 / (sizeof (vals) == 20);
	ok = 1 / (sizeof (name) == 16);
	name[0] = 'd';
	name[15] = 't';
	printf("%d %d %d %d %c%c%d\n", vals[0], vals[4], vals[2], x, name[0], name[15], name[14]);
	exit(0);
}
