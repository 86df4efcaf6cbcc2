/* printf %d %i %u %o %x %X with integers of several sizes and signs */
BEGIN
{
	printf("%d %i %u %o %x %X\n", 1, -2, 3U, 8, 255, 255);
	printf("%d %d %d %d\n", pid, (char)1, (short)-2, (int64_t)arg0);
	printf("%u %x %X\n", timestamp, (uint8_t)arg0, (uint16_t)arg1);
	printf("no conversion at all\n");
	printf("a literal %% sign\n");
}
