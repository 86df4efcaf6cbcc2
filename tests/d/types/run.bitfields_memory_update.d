/*
 * op=, ++ and -- on bit-fields of scratch memory through a pointer
 * (p->m, (*p).m, a 40-bit field of a 64-bit unit): the unit read once,
 * the field taken out (sign-extended for a signed type), the new value
 * cut to the width and put back with the unit's other bits kept, as C
 * does; the expression's value is the field's new value as it reads, or
 * the old one after x++ and x--.  The expected values are a C program's
 * (the same statements on the same struct).  Outside scratch memory, a
 * bad address fault at the unit's address.
 */
/* @args: -q */
struct flags {
	unsigned int ready : 1;
	unsigned int : 2;
	unsigned int mode : 3;
	int level : 4;
};

struct outer {
	long pad;
	struct flags f;
	unsigned long big : 40;
};

BEGIN
{
	op = (struct outer *)alloca(sizeof (struct outer));
	p = (unsigned int *)&op->f;
	*p = 1 | 5 << 3 | 0xd << 6 | 0xff000000;
	q = (unsigned long *)((char *)op + 16);
	*q = 0xfff123456789;
	fp = &op->f;
	a = (fp->mode += 2);
	b = (fp->mode += 3);
	c = fp->mode++;
	d = ++fp->mode;
	e = --fp->level;
	f = fp->level--;
	g = (fp->level -= 4);
	h = (fp->level *= 2);
	i = fp->ready++;
	j = (fp->ready |= 1);
	k = (op->big += 0x10000000000 - 0x123456789 + 1);
	l = op->big--;
	m = ((*fp).mode <<= 1);
	n = (fp->level ^= -1);
	printf("%d %d %d %d %d %d %d %d %d %d %x %x %d %d\n", a, b, c, d, e, f, g, h, i, j, k, l,
	    m, n);
	printf("%d %d %d %d %x %x %x\n", fp->ready, fp->mode, fp->level, (*fp).mode, *p, op->big,
	    *q);
}

BEGIN
{
	fp = (struct flags *)alloca(sizeof (struct flags));
	fp->level = -8;
	fp->level--;
	printf("%d\n", fp->level);
}

BEGIN
{
	fp = (struct flags *)16;
	fp->mode += 1;
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}
