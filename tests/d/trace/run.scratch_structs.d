/*
 * A struct built in alloca()'d memory through a pointer kept in a
 * variable: members stored and read with ->, (*p).m and nested
 * p->in.m, an array member indexed and printed as a string, the last
 * member read through a pointer of another type kept in self->.
 */
/* @args: -q */
struct in {
	short b;
	char c[4];
};

struct s {
	int a;
	struct in in;
	long last;
};

BEGIN
{
	this->p = (struct s *)alloca(sizeof (struct s));
	this->p->a = -9;
	(*this->p).in.b = 7;
	this->p->in.c[0] = 'B';
	this->p->in.c[1] = 'A';
	this->p->in.c[2] = 0;
	this->p->last = 0x1122334455667788;
	printf("%d %d %s %c %x %d\n", (*this->p).a, this->p->in.b, this->p->in.c,
	    (*this->p).in.c[1], this->p->last, sizeof (struct s));
	self->q = (long *)this->p;
	printf("%x\n", self->q[2]);
}

BEGIN
{
	self->q = 0;
	exit(0);
}
