/* typedef of an anonymous struct or enum, and a variable of an anonymous enum type. */
typedef struct { int a; } anon_t;
typedef enum { EA, EB } choice_t;
enum { ZA, ZB } e;

anon_t v;
choice_t w;

BEGIN
{
	v.a = EB;
	w = EA;
	e = ZB;
	ok = 1 / (ZB == 1);
}
