/* An associative array created by assignment may hold a struct, copied in whole. */
/* @args: -q */
struct point { int x; int y; };
struct point pt;

BEGIN
{
	pt.x = 3;
	pt.y = -4;
	tab[1] = pt;
	pt.x = 30;
	tab[2].y = 8;
	printf("%d %d %d %d %d\n", tab[1].x, tab[1].y, tab[2].x, tab[2].y, tab[3].y);
	exit(0);
}
