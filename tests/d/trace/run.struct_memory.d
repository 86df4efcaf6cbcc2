/*
 * . on memory (p->in.x): a member of a struct member read through a
 * pointer, from the process's memory: at a NULL pointer, an invalid
 * address fault at the member's own address (4).
 */
/* @args: -q */
struct s {
	int pad;
	struct {
		int x;
	} in;
};

BEGIN
{
	p = (struct s *)0;
	trace(p->in.x);
}

BEGIN
{
	exit(0);
}
