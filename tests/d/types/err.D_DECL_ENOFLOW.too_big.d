/* Enumerator values must fit in an int. */
enum big {
	SMALL = 1,
	HUGE = 0x80000000
};
