/* Enumerators count up from 0 or from an explicit value, and may be negative. */
enum color {
	RED,
	GREEN,
	BLUE = 10,
	CYAN,
	DARK = -3,
	DARKER
};

BEGIN
{
	ok = 1 / (RED == 0 && GREEN == 1);
	ok = 1 / (BLUE == 10 && CYAN == 11);
	ok = 1 / (DARK == -3 && DARKER == -2);
	ok = 1 / (sizeof (enum color) == 4);
}
