/* A struct does not compare with an integer. */
struct point { int x; };
struct point pt;

BEGIN
{
	b = pt < 1;
}
