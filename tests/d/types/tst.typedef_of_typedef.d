/* A typedef of a typedef resolves to the same base type. */
typedef int myint_t;
typedef myint_t myint2_t;
myint2_t v;

BEGIN
{
	v = 3;
	w = v + 1;
	ok = 1 / (sizeof (myint2_t) == 4);
}
