/* Inline integer constants fold like literals wherever they are used. */
inline int LIMIT = 10;
inline int TWICE = LIMIT * 2;
inline long BIG = 1L << 33;
inline unsigned char SMALL = 255;

BEGIN
{
	ok = 1 / (TWICE == 20);
	ok = 1 / (BIG == 0x200000000);
	ok = 1 / (LIMIT < TWICE);
	ok = 1 / (sizeof (BIG) == 8);
	ok = 1 / (SMALL == 255);
}
