/*
 * Compound assignment, ++ and -- through a pointer into scratch memory:
 * the address checked once, the old value read, the new one written
 * (x++ gives the old value, ++x the new one; a char wraps at its width).
 * Through an address the clause did not allocate: a bad address fault,
 * as a plain store (illumos dtrace_canstore).
 */
#pragma D option quiet

struct s {
	int a;
	long b;
	char c;
	int *ptr;
};

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	p->a = 5;
	p->a += 3;
	x = p->a++;
	y = ++p->b;
	p->b *= 7;
	p->c = 127;
	p->c++;
	q = (int *)alloca(16);
	q[1] = 10;
	q[1] -= 4;
	z = q[1]--;
	*q = -2;
	*q <<= 3;
	p->ptr = q;
	p->ptr += 2;
	printf("%d %d %d %d %d %d %d %d %d\n", p->a, x, y, p->b, p->c, q[1], z, *q,
	    p->ptr - q);
}

BEGIN
{
	this->p = (int *)1000;
	*this->p += 1;
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("ERROR fault %d addr %d\n", arg4, arg5);
}
