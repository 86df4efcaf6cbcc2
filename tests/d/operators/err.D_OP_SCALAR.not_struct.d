/* ! requires a scalar operand. */
struct point {
	int x;
};

struct point pt;

BEGIN
{
	x = !pt;
}
