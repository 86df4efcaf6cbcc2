/* Declared scalar arrays are indexed with integer expressions. */
int hist[8];
char buf[32];

BEGIN
{
	i = 3;
	hist[i] = hist[i] + 1;
	hist[0]++;
	c = buf[i * 2];
}
