/*
 * printf conversions as dtrace(1) rebuilds them (dt_printf_create, then
 * dt_printf_format): flags, digits and '.' in any order, the last of '0'
 * and '-' winning, any number of flags, a width or precision written only
 * when it is not 0 (so %.0d prints 0); a negative '*' width left-justifies
 * and a negative '*' precision is none, as C's printf takes them.
 */
#pragma D option quiet

BEGIN
{
	printf("[%.*s]\n", -5, "abc");
	printf("[%*d]\n", -4, 1);
	printf("[%.0-5s]\n", "abcdefg");
	printf("[%#+-- 0+#x]\n", 255);
	printf("[%---------5d]\n", 7);
	printf("[%.0d]\n", 0);
	printf("[%-05d]\n", 3);
	printf("[%0-5d]\n", 3);
	printf("[%*.*s]\n", 6, -1, "abc");
	printf("[%.*s]\n", 0, "");
	printf("[%5s]\n", "");
	exit(0);
}
