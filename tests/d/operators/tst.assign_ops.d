/* Every compound assignment operator applies to an integer variable. */
BEGIN
{
	x = 100;
	x += 5;
	x -= 3;
	x *= 2;
	x /= 4;
	x %= 7;
	x &= 0xff;
	x |= 0x100;
	x ^= 0x11;
	x <<= 2;
	x >>= 1;
	y = z = x;
}
