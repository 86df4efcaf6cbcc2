/* + - * / % on integer constants fold as in C (division truncates toward zero). */
BEGIN
{
	ok = 1 / (7 + 5 == 12);
	ok = 1 / (7 - 10 == -3);
	ok = 1 / (6 * 7 == 42);
	ok = 1 / (7 / 2 == 3);
	ok = 1 / (-7 / 2 == -3);
	ok = 1 / (7 % 3 == 1);
	ok = 1 / (-7 % 3 == -1);
	ok = 1 / (7u / 2u == 3);
	ok = 1 / (0x100000000 * 2 == 0x200000000);
}
