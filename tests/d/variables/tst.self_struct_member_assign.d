/* A member of a thread-local struct variable is writable. */
struct point { int a; };
self struct point v;

BEGIN
{
	self->v.a = 1;
}
