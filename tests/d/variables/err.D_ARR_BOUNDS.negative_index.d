/* A negative constant index of a declared array member is refused too. */
struct s { int v[2][3]; } g;

BEGIN
{
	g.v[1][-1] = 0;
}
