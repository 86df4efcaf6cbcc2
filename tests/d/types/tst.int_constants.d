/* Decimal, octal and hexadecimal integer constants have the expected values. */
BEGIN
{
	ok = 1 / (010 == 8);
	ok = 1 / (0777 == 511);
	ok = 1 / (0x10 == 16);
	ok = 1 / (0XfF == 255);
	ok = 1 / (0 == 00);
	ok = 1 / (1234567 == 0x12d687);
	ok = 1 / (0x7fffffffffffffff > 0);
}
