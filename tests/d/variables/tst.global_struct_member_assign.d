/* A member of a global struct variable is writable as the variable is. */
struct point { int x; };
struct point pt;

BEGIN
{
	pt.x = 1;
	pt.x += 2;
}
