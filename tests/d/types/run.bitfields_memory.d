/*
 * Bit-fields of memory are read (p->m, (*p).m, p->a.m): the unit of the
 * field's type that holds it, then the field's bits, sign-extended for a
 * signed type; through NULL, a bad address fault at the unit's address.
 * They are written in scratch memory: the unit's other bits kept, the
 * value cut to the width (the assignment's value is the field's).
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
	*p = 1 | 5 << 3 | 0xd << 6;
	q = (unsigned long *)((char *)op + 16);
	*q = 0xfff123456789;
	fp = &op->f;
	printf("%d %d %d %d %d %x\n", fp->ready, fp->mode, fp->level, (*fp).mode, op->f.level,
	    op->big);
	fp->mode = 2;
	fp->level = 7;
	v = (fp->ready = 2);
	op->big = 0x1234567890ab;
	printf("%d %d %d %d %x %x %x\n", fp->ready, fp->mode, fp->level, v, *p, op->big, *q);
}

BEGIN
{
	fp = (struct flags *)0;
	trace(fp->mode);
}

BEGIN
{
	exit(0);
}
