/*
 * Bit-field members of a translated struct built whole: each cut to its
 * width in its unit, the unit's other bits kept (lo = 5 in 3 signed bits
 * is -3, s = -5 in 4 bits stays -5), as a store to a bit-field does.
 */
/* @args: -q */
struct in { int a; };
struct out { int lo : 3; unsigned hi : 5; int s : 4; int after; };
translator struct out < struct in *p > { lo = p->a; hi = p->a * 3; s = -p->a; after = 9; };
BEGIN
{
	this->p = (struct in *)alloca(4);
	this->p->a = 5;
	this->o = xlate<struct out>(this->p);
	printf("%d %d %d %d\n", this->o.lo, this->o.hi, this->o.s, this->o.after);
	trace(xlate<struct out>(this->p));
	exit(0);
}
