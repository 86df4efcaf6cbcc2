/* op=, ++ and -- on associative and self-> scalars compute their keys once (a[i++]); reaching 0 deletes. */
/* @args: -q */
int i;
int a[int];
self int s;

BEGIN
{
	a[i++] += 5;		/* a[0] */
	a[i++]++;		/* a[1] */
	x = a[0]++;
	y = ++a[0];
	self->s--;
	z = self->s++;
	printf("i %d a0 %d a1 %d x %d y %d s %d z %d\n", i, a[0], a[1], x, y, self->s, z);
	b["k"] = 1;
	b["k"]--;
	printf("b %d\n", b["k"]);
	exit(0);
}
