/* op=, ++ and -- on struct members: keys computed once (a[i++]), values wrap to the member type, _Bool is 0 or 1. */
/* @args: -q */
struct s { uint64_t n; int k; _Bool f; struct { char c; } in; };
struct s a[int];
self struct s me;
int i;
struct s g;
BEGIN
{
	a[i++].n += 5;		/* one key: a[0] */
	a[i++].n++;		/* a[1] */
	x = a[0].n++;		/* post: 5, then 6 */
	y = ++a[0].k;
	a[2].in.c += 130;	/* char wraps: -126 */
	self->me.n -= 3;
	g.f = 256;
	a[3].f = 2;
	printf("i %d a0 %d a1 %d x %d y %d c %d me %u f %d %d\n", i, a[0].n, a[1].n, x, y,
	    a[2].in.c, self->me.n, g.f, a[3].f);
	exit(0);
}
