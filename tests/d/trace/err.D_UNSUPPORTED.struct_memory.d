/* A known gap, not the intended behaviour: . on memory (p->in.x) is not supported yet, and is refused when compiled, with its place. */
struct s {
	struct {
		int x;
	} in;
};

BEGIN
{
	p = (struct s *)0;
	trace(p->in.x);
}
