/* typedef names for base, pointer, array and struct types can declare variables and casts. */
/* @args: -q */
typedef unsigned long counter_t;
typedef char *cstr_t;
typedef int quad_t[4];
struct pair { int a; int b; };
typedef struct pair pair_t;

counter_t n;
cstr_t name;
quad_t q;
pair_t pr;

BEGIN
{
	n = (counter_t)5;
	q[2] = 7;
	pr.a;
	ok = 1 / (sizeof (counter_t) == 8);
	ok = 1 / (sizeof (cstr_t) == 8);
	ok = 1 / (sizeof (quad_t) == 16);
	ok = 1 / (sizeof (pair_t) == sizeof (struct pair));
	pr.b = q[2] * 2;
	printf("%d %d %d %d %d\n", n, q[2], q[3], pr.a, pr.b);
	exit(0);
}
