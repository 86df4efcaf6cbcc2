/* A struct may be an associative array key (DTrace's tst.StructAssoc.d). */
struct rec { int pos; char c; };
struct rec r1;

BEGIN
{
	tab[r1] = 1000;
}
