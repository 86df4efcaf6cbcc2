/* Casts to narrower or differently signed integer types wrap and sign-extend as in C. */
BEGIN
{
	ok = 1 / ((char)255 == -1);
	ok = 1 / ((unsigned char)-1 == 255);
	ok = 1 / ((signed char)128 == -128);
	ok = 1 / ((short)65535 == -1);
	ok = 1 / ((unsigned short)65536 == 0);
	ok = 1 / ((unsigned int)-1 > 0);
	ok = 1 / ((int)-1 < 0);
	ok = 1 / ((uint8_t)0x1ff == 0xff);
	ok = 1 / ((int16_t)0x18000 == -32768);
}
