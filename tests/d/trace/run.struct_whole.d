/* A struct variable is used by its members: copying it whole is refused at load, with its place. */
/* @exit: 1 */
struct s {
	int a;
};
struct s g, h;

BEGIN
{
	g.a = 1;
	h = g;
	exit(0);
}
