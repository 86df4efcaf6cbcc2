/* '->' needs a pointer on its left; a struct takes '.'. */
struct point {
	int x;
};

struct point pt;

BEGIN
{
	v = pt->x;
}
