/* struct members are read with '.' on a struct and '->' on a pointer to it. */
struct point {
	int x;
	int y;
};

struct point pt;
struct point *pp;

BEGIN
{
	a = pt.x + pt.y;
	b = pp->x * pp->y;
	c = (*pp).y;
	d = pp;
	e = d->x;
}
