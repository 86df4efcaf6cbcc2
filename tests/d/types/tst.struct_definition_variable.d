/* A declaration may define a struct and declare a variable of it at once, as in C. */
struct point { int x; int y; } origin;

BEGIN
{
	origin.y = 2;
	ok = 1 / (sizeof (origin) == 8);
}
