/* A struct key of another struct type than before does not match (DTrace's err.D_PROTO_ARG.DupStructAssoc.d). */
struct rec { int pos; char c; };
struct other { int pos; char c; };
struct rec r1;
struct other r2;

BEGIN
{
	tab[r1] = 1000;
	tab[r2] = 1;
}
