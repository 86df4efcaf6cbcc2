/* & and * are inverse on lvalues reached through pointers. */
struct point {
	int x;
	int y;
};

struct point *pp;
int *ip;

BEGIN
{
	a = &pp->y;
	b = *a;
	c = &*ip;
	d = &ip[2];
	e = *&pp->x;
	f = &(*pp);
}
