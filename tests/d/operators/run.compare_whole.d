/*
 * Structs, unions and arrays of one type compare whole, as illumos
 * dt_cook_op2 lets them (ctf_type_compat) and dt_cg_compare_op compares
 * them: by the references it holds (DIF_OP_CMP), not by their bytes.  A
 * variable equals itself only, whatever the bytes; *p equals *q where p is
 * q; every absent dynamic variable reads the same zeros.  Two char arrays
 * compare so too; a char array and a string compare as strings.
 */
/* @args: -q */
struct pt { int x; int y; } a, b;
union u { int i; char c[4]; } u1, u2;
int arr[2], arr2[2];
struct r { char name[8]; } r1, r2;

BEGIN
{
	a.x = 1;
	b.x = 1;
	printf("globals: %d %d %d %d\n", a == b, a != b, a == a, a != a);
	printf("union: %d %d\n", u1 == u2, u2 == u2);
	printf("arrays: %d %d\n", arr == arr2, arr2 == arr2);
	r1.name[0] = 'a';
	r2.name[0] = 'a';
	printf("chars: %d %d %d\n", r1.name == r2.name, r1.name == r1.name, r1.name == "a");
	this->s = a;
	this->t = a;
	printf("this: %d %d %d\n", this->s == this->t, this->s == this->s, this->s == a);
	self->s = a;
	printf("self: %d %d\n", self->s == self->s, self->s == a);
	tab[1] = a;
	tab[2] = a;
	printf("assoc: %d %d %d\n", tab[1] == tab[2], tab[1] == tab[1], tab[3] == tab[4]);
	this->p = (struct pt *)alloca(2 * sizeof (struct pt));
	this->q = this->p;
	printf("memory: %d %d %d\n", *this->p == *this->q, *this->p == this->p[1],
	    this->p[0] == *this->q);
	printf("order: %d %d\n", this->p[0] < this->p[1], this->p[1] <= this->p[0]);
	exit(0);
}
