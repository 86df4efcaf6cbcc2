/*
 * Struct members may be bit-fields of an integer type (Guide: Structs and
 * Unions, Bit-Fields), laid out as C on x86-64: from the least significant
 * bit of a unit of their type, a field that would straddle a unit starting
 * the next one.  Reading one gives its bits, sign-extended if its type is
 * signed; storing one keeps the other bits of its unit and cuts the value
 * to the field's width; ++, -- and op= wrap in it.  trace() of the struct
 * shows the bits where C puts them.  Global, this->, self-> and
 * associative struct variables.
 */
/* @args: -q */
struct flags {
	unsigned int ready : 1;
	unsigned int mode : 3;
	int level : 4;
};

struct wide {
	unsigned int a : 30;
	unsigned int b : 5; /* straddles: starts the next int, bit 32 */
	unsigned long big : 40;
	char c : 3;
};

struct flags fl;
struct wide w;
self struct flags sf;
struct flags tab[int];

BEGIN
{
	x = fl.mode + fl.ready;
	fl.level = 2;
	fl.ready = 1;
	fl.mode = 5;
	printf("x %d ready %d mode %d level %d, bits ", x, fl.ready, fl.mode, fl.level);
	trace(fl); /* 1 | 5 << 1 | 2 << 4 = 43 */
	printf("\n");
	fl.level = -3;
	fl.mode = 12; /* cut to 3 bits: 4 */
	printf("level %d mode %d ready %d, bits ", fl.level, fl.mode, fl.ready);
	trace(fl); /* 1 | 4 << 1 | 0xd << 4 = 217 */
	printf("\n");
	fl.level = 7;
	fl.level++;
	fl.mode = 7;
	m = fl.mode++;
	fl.ready--;
	printf("level %d mode %d (was %d) ready %d, = value %d\n", fl.level, fl.mode, m,
	    fl.ready, fl.mode = 9);
	w.a = 0x3fffffff;
	w.b = 31;
	w.big = 0xffffffffff;
	w.big += 2;
	w.c = -1;
	printf("a %x b %d big %x c %d, sizeof %d\n", w.a, w.b, w.big, w.c, sizeof (struct wide));
	w.a = 0;
	printf("a %x b %d\n", w.a, w.b);
	self->sf.mode = 6;
	self->sf.level = -1;
	self->sf.mode |= 1;
	tab[1].level = -8;
	tab[1].ready = 1;
	i = 1;
	printf("self %d %d, tab %d %d %d %d\n", self->sf.mode, self->sf.level, tab[i].level,
	    tab[i].ready, tab[2].level, tab[i].mode);
	exit(0);
}
