/* printf conversions, flags, widths and precisions, by argument size. */
/* @args: -q */
BEGIN
{
	printf("[%d] [%i] [%u] [%x] [%X] [%o]\n", -42, 42, 42, 255, 255, 8);
	printf("[%5d] [%-5d] [%05d] [%+d] [% d]\n", 42, 42, 42, 42, 42);
	printf("[%d] [%u] [%x]\n", (char)-1, (unsigned char)200, (short)-1);
	printf("[%d] [%x] [%d]\n", -1LL, -1LL, 9223372036854775807LL);
	printf("[%u] [%x]\n", (unsigned int)-1, -1);
	printf("[%c%c%c] [%s] [%10s] [%-10s] [%.3s]\n", 'a', 98, 'c', "str", "right", "left", "precision");
	printf("[%p] [%#x] [%#o]\n", (void *)0x1234, 255, 8);
	printf("[%*d] [%-*d] [%.*s]\n", 6, 7, 6, 7, 2, "abc");
	printf("100%% done\n");
	printf("no conversions\n");
	exit(0);
}
