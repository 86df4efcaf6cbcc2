/*
 * getmajor() and getminor(): the parts of a kernel dev_t (the io
 * provider's b_edev), Linux's MAJOR() and MINOR(): 12 bits from bit 20
 * and the 20 bits below; the rest of a wider value is ignored.
 */
/* @args: -q */
BEGIN
{
	printf("%d %d\n", getmajor(254 << 20 | 3), getminor(254 << 20 | 3));
	printf("%d %d\n", getmajor(0xfff00000), getminor(0xfff00000));
	printf("%d %d\n", getmajor(0x1ffffffffULL), getminor(0x1ffffffffULL));
	printf("%d\n", sizeof (getmajor(0)));
	exit(0);
}
