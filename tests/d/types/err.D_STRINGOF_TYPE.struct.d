/* stringof needs a scalar or string operand. */
struct point {
	int x;
};

struct point pt;

BEGIN
{
	s = stringof(pt);
}
