/* A struct cannot be cast to an integer. */
struct point {
	int x;
};

struct point pt;

BEGIN
{
	v = (int)pt;
}
