/* An associative array created by assignment may hold a struct. */
struct point { int x; };
struct point pt;

BEGIN
{
	tab[1] = pt;
}
