/* D calls its own functions only, not through pointers */
struct ops {
	int (*open)(int);
};

struct ops *o;

BEGIN
{
	x = o->open(1);
}
