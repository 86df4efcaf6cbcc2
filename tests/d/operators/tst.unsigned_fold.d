/*
 * Constants fold after C's usual arithmetic conversions: an int meets an
 * unsigned int as an unsigned int (-1 is 4294967295 there), a long holds
 * every unsigned int, and each result keeps its type's width and sign.
 */
BEGIN
{
	ok = 1 / (-1 == 0xffffffff);
	ok = 1 / (-1 == 4294967295u);
	ok = 1 / (-1 != 4294967295L);
	ok = 1 / (-1 / 2u == 2147483647);
	ok = 1 / (-1 % 7u == 3);
	ok = 1 / (-1 <= 4294967295u);
	ok = 1 / (-1 > 1u);
	ok = 1 / !(-1 < 1u);
	ok = 1 / (-1L < 1u);
	ok = 1 / (-1L / 2u == 0);
	ok = 1 / (-1 / 2UL == 0x7fffffffffffffff);
	ok = 1 / (-7 / 2 == -3 && -7 % 2 == -1);
	ok = 1 / (-16 >> 2 == -4);
	ok = 1 / ((-16 >> 2u) == -4);
	ok = 1 / (0xfffffff0 >> 4 == 0x0fffffff);
	ok = 1 / (0x80000000u * 2 == 0);
	ok = 1 / (0xffffffffu + 1 == 0);
	ok = 1 / ((unsigned char)255 + 1 == 256);
	ok = 1 / ((unsigned int)-1 == 4294967295L);
	ok = 1 / ((char)200 == -56);
	ok = 1 / ((1 ? -1 : 0u) == 4294967295L);
	ok = 1 / (-(1u) == 4294967295L);
	ok = 1 / (~0u == 4294967295L);
	ok = 1 / (sizeof (-1 / 2u) == 4 && sizeof (-1L / 2u) == 8);
}
