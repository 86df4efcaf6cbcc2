/* A cast of a constant is itself a constant, usable in further folding. */
BEGIN
{
	ok = 1 / ((unsigned char)(256 + 7) == 7);
	ok = 1 / (sizeof ((short)1) == 2);
	ok = 1 / (sizeof ((long)1) == 8);
	ok = 1 / ((long)(int)0xffffffffffffffff == -1);
	ok = 1 / ((unsigned long)(unsigned int)-1 == 0xffffffffUL);
}
