/*
 * A struct may be an associative array key (DTrace's tst.StructAssoc.d):
 * its bytes are the key, so equal members find the same element.
 */
/* @args: -q */
struct rec { int pos; char c; };
struct rec r1, r2;

BEGIN
{
	r1.pos = 1;
	r1.c = 'a';
	tab[r1] = 1000;
	r2.pos = 1;
	r2.c = 'a';
	x = tab[r2];
	r2.c = 'b';
	y = tab[r2];
	tab[r2] = 5;
	self->st[r2, 3] = 7;
	printf("%d %d %d %d %d %d\n", x, y, tab[r2], tab[r1], self->st[r2, 3], self->st[r1, 3]);
	exit(0);
}
