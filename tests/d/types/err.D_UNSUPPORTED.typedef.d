/* typedef names for base, pointer, array and struct types can declare variables and casts. */
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
}
