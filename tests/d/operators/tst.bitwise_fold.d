/* & | ^ ~ << >> on integer constants fold as in C. */
BEGIN
{
	ok = 1 / ((0xf0 & 0x3c) == 0x30);
	ok = 1 / ((0xf0 | 0x0f) == 0xff);
	ok = 1 / ((0xff ^ 0x0f) == 0xf0);
	ok = 1 / (~0 == -1);
	ok = 1 / ((~0u & 0xff) == 0xff);
	ok = 1 / (1 << 4 == 16);
	ok = 1 / (256 >> 4 == 16);
	ok = 1 / (1L << 40 == 0x10000000000);
}
