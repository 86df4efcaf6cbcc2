/* The integer types have their LP64 sizes: each check divides by zero if wrong. */
BEGIN
{
	ok = 1 / (sizeof (char) == 1);
	ok = 1 / (sizeof (short) == 2);
	ok = 1 / (sizeof (int) == 4);
	ok = 1 / (sizeof (long) == 8);
	ok = 1 / (sizeof (long long) == 8);
	ok = 1 / (sizeof (unsigned char) == 1);
	ok = 1 / (sizeof (unsigned short) == 2);
	ok = 1 / (sizeof (unsigned) == 4);
	ok = 1 / (sizeof (unsigned long long) == 8);
	ok = 1 / (sizeof (signed char) == 1);
	ok = 1 / (sizeof (short int) == 2);
	ok = 1 / (sizeof (long int) == 8);
	ok = 1 / (sizeof (unsigned long int) == 8);
}
