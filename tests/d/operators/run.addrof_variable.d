/*
 * & of a variable's member or element (illumos dt_cook_op1 DT_TOK_ADDROF
 * takes any lvalue but a variable itself): the address of that storage,
 * which reads back through *, ->, [] and the subroutines that read
 * memory (stringof, strlen, bcopy, tracemem), for global, this->, self->
 * and associative array variables; a pointer into a dynamic variable
 * lasts while the variable does.  An absent dynamic variable's member is
 * at its offset from NULL (a bad address fault at the offset, as
 * illumos' NULL base), an index outside the array faults at the
 * element's offset in the variable, as reading the element does.
 */
/* @args: -q */
struct in {
	int a;
	long b;
};

struct pt {
	int x;
	int y;
	char name[8];
	int arr[4];
	struct in in;
};

struct pt g;
self struct pt sp;
this struct pt s;
struct pt tab[int];

BEGIN
{
	g.x = 3;
	g.y = -4;
	g.arr[2] = 42;
	g.name[0] = 'h';
	g.name[1] = 'i';
	g.in.b = 1234567890123;
	this->s.x = 7;
	this->s.arr[3] = 9;
	self->sp.y = 11;
	tab[5].x = 13;
	p = &g.y;
	i = 1;
	printf("%d %d %d %d\n", *p, *&g.arr[2], *&this->s.arr[3], *&g.arr[i + 1]);
	printf("%d %d %d\n", *(&g.x + 1), *&self->sp.y, *&tab[5].x);
	printf("%s %d %d\n", stringof(&g.name[0]), strlen((char *)&g.name), (&g.in)->b);
	printf("%d %d %d\n", &g.arr[3] - &g.arr[0], (char *)&g.y - (char *)&g.x,
	    &this->s.arr[1] == &this->s.arr[0] + 1);
	buf = (int *)alloca(16);
	bcopy(&g.arr, buf, 16);
	printf("%d %d\n", buf[2], buf[3]);
	tracemem(&g.name, 8);
	self->q = &self->sp.y;
}

BEGIN
{
	self->sp.y = 12;
	printf("%d\n", *self->q);
}

BEGIN
{
	trace(*&tab[6].y);
}

BEGIN
{
	trace(*&g.arr[i + 4]);
}

BEGIN
{
	exit(0);
}
