/*
 * & and * are inverse on lvalues reached through pointers: &pp->y is pp
 * plus y's offset, &*ip is ip, &ip[2] is ip + 2 elements (8 bytes),
 * &(*pp) is pp; through NULL, the addresses are numbers (no memory is
 * read) and *& of one faults at it.
 */
/* @args: -q */
struct point {
	int x;
	int y;
};

struct point *pp;
int *ip;

BEGIN
{
	pp = (struct point *)alloca(sizeof (struct point));
	ip = (int *)alloca(4 * sizeof (int));
	pp->x = 3;
	pp->y = 4;
	ip[2] = 12;
	a = &pp->y;
	b = *a;
	c = &*ip;
	d = &ip[2];
	e = *&pp->x;
	f = &(*pp);
	*a = 40;
	printf("%d %d %d %d %d %d %d\n", (char *)a - (char *)pp, b, c == ip,
	    (char *)d - (char *)ip, *d, e, f == pp);
	printf("%d %d\n", pp->y, *&ip[2]);
}

BEGIN
{
	pp = 0;
	printf("%d %d\n", (long)&pp->y, (long)&((struct point *)0)[3].y);
}

BEGIN
{
	trace(*&pp->y);
}

BEGIN
{
	exit(0);
}
