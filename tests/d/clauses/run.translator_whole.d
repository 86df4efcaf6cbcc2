/*
 * A translated struct whole (illumos dt_cg_asgn_op, dt_cg_xlate_expand):
 * zeroed, then each member the translator defines computed with its input
 * bound to the operand and stored as the member's type; a member it does
 * not define (z) is zero.  Copied into variables of every kind, traced,
 * an aggregation key; a bad input address faults with the destination
 * untouched.
 */
/* @args: -q */
struct pt { int x; int y; };

struct in {
	int a;
	char *s;
	struct pt at;
};

struct out {
	int b;
	char name[8];
	long z;
	struct pt where;
	short neg;
	struct in *orig;
};

struct small { int v; };

translator struct out < struct in *P > {
	orig = P;
	neg = -P->a;
	where = P->at;
	name = stringof(P->s);
	b = P->a * 2;
};

translator struct small < struct in *P > {
	v = P->a + 1;
};

struct out g;

BEGIN
{
	this->p = (struct in *)alloca(sizeof (struct in));
	this->p->a = 21;
	this->p->s = (char *)alloca(16);
	this->p->s[0] = 'h';
	this->p->s[1] = 'i';
	this->p->at.x = 5;
	this->p->at.y = -6;
	this->o = xlate<struct out>(this->p);
	printf("this: %d %s %d %d,%d %d %d\n", this->o.b, this->o.name, this->o.z,
	    this->o.where.x, this->o.where.y, this->o.neg, this->o.orig == this->p);
	g = xlate<struct out>(this->p);
	self->o = *xlate<struct out *>(this->p);
	tab["k"] = xlate<struct out>(this->p);
	this->p->a = 1;
	printf("global: %d %s %d\n", g.b, g.name, g.neg);
	printf("self: %d %s %d\n", self->o.b, self->o.name, self->o.where.y);
	printf("assoc: %d %s %d\n", tab["k"].b, tab["k"].name, tab["k"].where.x);
	printf("again: %d\n", xlate<struct out>(this->p).b);
	trace(xlate<struct small>(this->p));
	printf("\n");
	this->p->s[0] = 0;
	@k[xlate<struct small>(this->p)] = count();
	@k[xlate<struct small>(this->p)] = count();
	this->p->a = 41;
	@k[xlate<struct small>(this->p)] = count();
	printa(@k);
}

BEGIN
{
	g = xlate<struct out>((struct in *)8);
}

BEGIN
{
	printf("kept: %d %s\n", g.b, g.name);
	exit(0);
}
