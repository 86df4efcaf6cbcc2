/*
 * An array a variable holds (or a member array) passed whole where an
 * address is wanted: tracemem( ) records its bytes, bcopy( ) copies from
 * it, as illumos passes the reference to the variable's storage (which
 * dtrace_canload lets be read).  More bytes than it holds fault, at the
 * first byte past it (a variable has no address of its own here).
 */
/* @args: -q */
struct rec { int id; char name[6]; };
char buf[8];
int arr[3];
struct rec r;
this short sh[2];
self int th[2];

BEGIN
{
	buf[0] = 'A';
	buf[7] = 'z';
	arr[1] = 7;
	r.id = 258;
	r.name[0] = 'x';
	this->sh[1] = -1;
	tracemem(buf, 8);
	tracemem(arr, 12, 8);
	tracemem(r.name, 6);
	tracemem(this->sh, 4);
	tracemem(self->th, 8);
	self->th[0] = 9;
	tracemem(self->th, 8);
	this->p = (char *)alloca(12);
	bcopy(arr, this->p, 12);
	bcopy(buf, this->p, 1);
	printf("%d %d %d\n", this->p[0], ((int *)this->p)[1], ((int *)this->p)[2]);
}

BEGIN
{
	tracemem(arr, 13);
}

BEGIN
{
	this->n = 9;
	this->p = (char *)alloca(16);
	bcopy(buf, this->p, this->n);
}

BEGIN
{
	exit(0);
}
