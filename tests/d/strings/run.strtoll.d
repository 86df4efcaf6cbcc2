/*
 * strtoll(s [, base]) as illumos's dtrace_strtoll: leading spaces and
 * tabs, a sign, "0x" skipped in base 16 when a hex digit follows, the
 * base's digits (letters in either case) up to the first other byte;
 * overflow wraps; a base outside 2..36 is an illegal operation.
 */
/* @args: -q */

BEGIN
{
	printf("%d %d %d %d %d\n", strtoll("42"), strtoll("  -17xyz"), strtoll("\t 12"),
	    strtoll("+8"), strtoll("1 2"));
	printf("%d %d %d %d %d\n", strtoll("0x1f", 16), strtoll("0X1F", 16), strtoll("1f", 16),
	    strtoll("0x", 16), strtoll("0x1f", 10));
	printf("%d %d %d %d %d\n", strtoll("z", 36), strtoll("Zz", 36), strtoll("777", 8),
	    strtoll("789", 8), strtoll("101", 2));
	printf("%d %d %d\n", strtoll(""), strtoll("-"), strtoll("   "));
	printf("%d %d %d\n", strtoll("9223372036854775807"), strtoll("9223372036854775808"),
	    strtoll("-9223372036854775808"));
	b = 16;
	printf("%d %d\n", strtoll(lltostr(-123456)), strtoll(lltostr(48879, b), b));
}

BEGIN
{
	b = 1;
	printf("%d\n", strtoll("1", b));
}

BEGIN
{
	printf("%d\n", strtoll("1", 37));
}

BEGIN
{
	exit(0);
}
