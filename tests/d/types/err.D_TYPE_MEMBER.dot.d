/* '.' names a member the struct does not have. */
struct point {
	int x;
	int y;
};

struct point pt;

BEGIN
{
	v = pt.z;
}
