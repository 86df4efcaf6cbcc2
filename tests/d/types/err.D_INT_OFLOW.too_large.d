/* An integer constant beyond 64 bits does not fit any integer type. */
BEGIN
{
	x = 18446744073709551616;
}
