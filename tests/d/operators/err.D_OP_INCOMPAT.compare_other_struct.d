/* structs of two types do not compare (illumos: ctf_type_compat fails on the names) */
struct pt { int x; int y; } a;
struct qt { int x; int y; } b;

BEGIN
{
	trace(a == b);
}
