/*
 * Integer arithmetic as DIF does it: on 64-bit registers, a value narrowed
 * to its type only when stored, cast or recorded.  (0x7fffffff + 1) / 2 is
 * 1073741824 folded and when the probe fires (it was -1073741824: the sum
 * was cut to an int first); the comparison sees the 64 bits too.  A shift
 * count is taken mod 64 folded and fired alike (C's shift of a register on
 * x86-64, which illumos' folding and DIF emulator are; BPF's too).
 */
#pragma D option quiet

BEGIN
{
	x = 0x7fffffff;
	z = 1;
	n = 64;
	printf("%d %d\n", (0x7fffffff + 1) / 2, (x + 1) / 2);
	printf("%d %d\n", 0x7fffffff + 1, x + 1);
	printf("%d %d\n", (0x7fffffff + 1) > 0, (x + 1) > 0);
	y = x + 1;
	printf("%d %d\n", y, y / 2);
	printf("%d %d %d %d\n", 1 << 64, z << 64, 1 << 65, z << (n + 1));
	printf("%d %d\n", 1LL << 63 >> 63, (z << 63) >> 63);
	printf("%d %d\n", (int)(x + 1) / 2, (short)(x + 0x8001) + 1);
	exit(0);
}
