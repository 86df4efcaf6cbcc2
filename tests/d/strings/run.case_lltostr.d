/*
 * toupper(), tolower() (ASCII letters only) and lltostr(v [, base]) as
 * illumos: base 10 signed, other bases the 64 bits unsigned, 0 before an
 * octal number, 0x before a hexadecimal one, digits then lower-case
 * letters up to base 36; a base outside 2..36 is an illegal operation.
 * Values by hand from illumos's code (and printf's %x/%o agree).
 */
/* @args: -q */

BEGIN
{
	printf("[%s] [%s] [%s]\n", toupper("MiXeD 123 ~{`@"), tolower("MiXeD 123 [@"), toupper(""));
	printf("[%s] [%s] [%s] [%s]\n", lltostr(-1234), lltostr(0), lltostr(0, 16), lltostr(0, 8));
	printf("[%s] [%s] [%s]\n", lltostr(8, 8), lltostr(255, 16), lltostr(-1, 16));
	printf("[%s] [%s]\n", lltostr(-9223372036854775807 - 1), lltostr(9223372036854775807));
	printf("[%s] [%s] [%s]\n", lltostr(-5, 2), lltostr(35, 36), lltostr(36, 36));
	b = 16;
	printf("[%s] [%s] %d\n", lltostr(4095, b), toupper(lltostr(4095, b)), strlen(lltostr(-10)));
}

BEGIN
{
	b = 37;
	printf("[%s]\n", lltostr(1, b));
}

BEGIN
{
	exit(0);
}
