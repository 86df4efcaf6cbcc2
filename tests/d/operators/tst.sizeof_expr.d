/* sizeof takes an expression without parentheses or a parenthesized type name. */
struct pair { int a; long b; };
struct pair pr;

BEGIN
{
	ok = 1 / (sizeof pr == 16);
	ok = 1 / (sizeof pr.a == 4);
	ok = 1 / (sizeof (struct pair) == sizeof pr);
	ok = 1 / (sizeof sizeof 1 == 8);
	ok = 1 / (sizeof timestamp == 8);
}
