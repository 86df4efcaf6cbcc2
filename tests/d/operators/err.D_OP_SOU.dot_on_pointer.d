/* . applies to a struct, not to a pointer to one (that is ->). */
struct point { int a; };
struct point *p;

BEGIN
{
	y = p.a;
}
