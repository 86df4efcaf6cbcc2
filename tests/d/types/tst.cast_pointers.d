/* Casts between pointer types, and between pointers and integers, are allowed. */
struct rec { int id; };

BEGIN
{
	v = (void *)0;
	r = (struct rec *)v;
	n = (uintptr_t)r;
	c = (char *)n;
	back = (void *)c;
	i = (int)n;
}
