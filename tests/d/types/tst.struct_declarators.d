/* Declarators may follow a struct, union or enum body at the top level, as in C. */
struct s { int a; } *sp;
struct t { int b; long c; } tv, *tp;
union u { int i; char c[8]; } uv;
enum e { A, B } ev;
enum { C = 5 } anon;

BEGIN
{
	sp = (struct s *)0;
	ok = 1 / (sizeof(*sp) == 4 && sizeof(tv) == 16 && sizeof(uv) == 8 && C == 5);
	ev = B;
}

struct later { int x; };

tick-1s
{
	n = sizeof(struct later);
}
