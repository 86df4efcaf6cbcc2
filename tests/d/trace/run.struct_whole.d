/*
 * A struct or union is copied whole between variables of any kind
 * (global, this->, self->, associative, an element of an array of
 * structs) and from memory: the bytes, as illumos copies a by-reference
 * value; an absent dynamic one copies as zeros.  The copy is a copy: a
 * later store to the source leaves it.  Copying from a bad address faults
 * with the destination untouched (memory is read into a temporary first).
 */
/* @args: -q */
struct s {
	int a;
	char c;
	long l;
};
union u {
	int i;
	char b[4];
};
struct s g, h, arr[3];
self struct s ss;
this struct s ts;
union u u1, u2;

BEGIN
{
	g.a = 1;
	g.c = 'x';
	g.l = -5;
	h = g;
	g.a = 9;
	self->ss = h;
	this->ts = self->ss;
	tab[1] = this->ts;
	i = 2;
	arr[i] = tab[1];
	printf("h %d %c %d, g %d\n", h.a, h.c, h.l, g.a);
	printf("self %d, this %d %d, tab %d %c, arr %d %d\n", self->ss.a, this->ts.a,
	    this->ts.l, tab[1].a, tab[1].c, arr[2].l, arr[0].a);
	h = tab[7];
	printf("absent: %d %d\n", h.a, h.l);
	p = (struct s *)alloca(sizeof (struct s));
	p->a = 77;
	p->l = 78;
	h = *p;
	arr[0] = *p;
	printf("from memory: %d %d %d\n", h.a, h.l, arr[0].a);
	u1.i = 0x64636261;
	u2 = u1;
	printf("union: %c%c%c%c\n", u2.b[0], u2.b[1], u2.b[2], u2.b[3]);
}

BEGIN
{
	p = (struct s *)0;
	h = *p;
}

BEGIN
{
	printf("h.a %d h.l %d after the fault\n", h.a, h.l);
	exit(0);
}
