/* Enumerator values may be constant expressions and may use earlier enumerators. */
enum flags {
	F_A = 1 << 0,
	F_B = 1 << 1,
	F_AB = F_A | F_B,
	F_SIZE = sizeof (long)
};

enum flags f;

BEGIN
{
	f = F_AB;
	ok = 1 / (F_AB == 3);
	ok = 1 / (F_SIZE == 8);
	g = f == F_B;
}
