/*
 * A translator whose input is a struct value (translator struct out <
 * struct in v >): the input is held by reference, as illumos holds a
 * by-reference value, and its members are read as v.m or through a cast
 * to its own type, ((struct in) v).m (illumos dt_cook_op2 accepts a cast
 * between compatible types).  The input may be a variable of any kind or
 * memory; an absent dynamic variable reads as zeros.  Members the
 * translator does not define are zero in the whole struct.
 */
/* @args: -q */
struct in { int ii; char ic; };
struct out { int oi; char oc; int both; long none; };

translator struct out < struct in v >
{
	oi = ((struct in) v).ii;
	oc = v.ic;
	both = v.ii + v.ic;
};

struct out o;
struct in g;
self struct in absent;

BEGIN
{
	g.ii = 100;
	g.ic = 'z';
	o = xlate<struct out>(g);
	printf("%d %c %d %d\n", o.oi, o.oc, o.both, o.none);
	printf("%d\n", xlate<struct out>(g).both);
	this->p = (struct in *)alloca(sizeof (struct in));
	this->p->ii = 5;
	this->p->ic = 1;
	printf("%d\n", xlate<struct out>(*this->p).both);
	self->in = g;
	self->in.ii = 7;
	printf("%d %d\n", xlate<struct out>(self->in).oi, g.ii);
	printf("%d %d\n", xlate<struct out>(self->absent).oi, xlate<struct out>(self->absent).oc);
	exit(0);
}
