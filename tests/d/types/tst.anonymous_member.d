/* A member may be declared with an anonymous struct type defined in place. */
union wrap {
	struct {
		int lo;
		int hi;
	} parts;
	long all;
};

union wrap w;

BEGIN
{
	x = w.parts.hi;
	ok = 1 / (sizeof (union wrap) == 8);
}
