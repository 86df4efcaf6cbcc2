/* ANSI-C integer promotions: operands narrower than int become int before arithmetic. */
BEGIN
{
	ok = 1 / (sizeof ((char)1 + (char)1) == 4);
	ok = 1 / (sizeof ((short)1 * (short)1) == 4);
	ok = 1 / (sizeof (-(char)1) == 4);
	ok = 1 / (sizeof (pid ? (char)1 : (short)2) == 4);
	ok = 1 / (sizeof (1 + 1L) == 8);
	ok = 1 / (sizeof (1u + 1) == 4);
	ok = 1 / (sizeof ((unsigned char)1 + 1UL) == 8);
	ok = 1 / ((unsigned char)200 + (unsigned char)100 == 300);
	ok = 1 / ((char)-1 < 0);
	ok = 1 / (((unsigned short)0 - 1) < 0);
}
