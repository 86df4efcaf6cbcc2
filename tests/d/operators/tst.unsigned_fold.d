/*
 * Constants fold as DIF computes and illumos' dt_node_op2 folds: on the
 * 64-bit values, the type (C's usual arithmetic conversions) choosing
 * signed or unsigned division, shift and comparison; the result keeps its
 * 64 bits until it is cast, stored or recorded, so -1 (0xffffffffffffffff)
 * is not 0xffffffff.  A negated or complemented unsigned constant is cut to
 * its type (dt_node_op1).  Each line divides by zero if it is false.
 */
BEGIN
{
	ok = 1 / !(-1 == 0xffffffff);
	ok = 1 / !(-1 == 4294967295u);
	ok = 1 / (-1 != 4294967295L);
	ok = 1 / (-1 / 2u == 0x7fffffffffffffff);
	ok = 1 / ((unsigned int)(-1 / 2u) == 4294967295L);
	ok = 1 / (-1 % 7u == 1);
	ok = 1 / !(-1 <= 4294967295u);
	ok = 1 / (-1 > 1u);
	ok = 1 / !(-1 < 1u);
	ok = 1 / (-1L < 1u);
	ok = 1 / (-1L / 2u == 0);
	ok = 1 / (-1 / 2UL == 0x7fffffffffffffff);
	ok = 1 / (-7 / 2 == -3 && -7 % 2 == -1);
	ok = 1 / (-16 >> 2 == -4);
	ok = 1 / ((-16 >> 2u) == -4);
	ok = 1 / (0xfffffff0 >> 4 == 0x0fffffff);
	ok = 1 / (0x80000000u * 2 == 0x100000000);
	ok = 1 / ((unsigned int)(0x80000000u * 2) == 0);
	ok = 1 / (0xffffffffu + 1 == 0x100000000);
	ok = 1 / ((unsigned int)(0xffffffffu + 1) == 0);
	ok = 1 / ((0x7fffffff + 1) / 2 == 1073741824);
	ok = 1 / ((int)(0x7fffffff + 1) == -2147483648);
	ok = 1 / (1 << 64 == 1 && 1 << 65 == 2 && 1LL << 63 >> 63 == -1);
	ok = 1 / ((unsigned char)255 + 1 == 256);
	ok = 1 / ((unsigned int)-1 == 4294967295L);
	ok = 1 / ((char)200 == -56);
	ok = 1 / ((1 ? -1 : 0u) == 4294967295L);
	ok = 1 / (-(1u) == 4294967295L);
	ok = 1 / (~0u == 4294967295L);
	ok = 1 / (sizeof (-1 / 2u) == 4 && sizeof (-1L / 2u) == 8);
}
