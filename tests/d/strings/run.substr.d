/*
 * substr(s, index [, length]) as illumos's DIF_SUBR_SUBSTR: a negative
 * index counts from the end, and one before the start shortens the length
 * by as much; an index at or past the end gives ""; a negative length
 * leaves that many characters off the end.  Expected values by hand from
 * illumos's rules (uts/common/dtrace/dtrace.c).
 */
/* @args: -q */

BEGIN
{
	s = "/usr/lib/../bin/dtrace";
	printf("1 [%s]\n", substr(s, 5));
	printf("2 [%s]\n", substr(s, 5, 3));
	printf("3 [%s]\n", substr(s, -6));
	printf("4 [%s]\n", substr(s, 0));
	printf("5 [%s]\n", substr(s, 0, 0));
	printf("6 [%s]\n", substr(s, 21));
	printf("7 [%s]\n", substr(s, 22));
	printf("8 [%s]\n", substr(s, 12345678));
	printf("9 [%s]\n", substr("hello", -10, 7));
	printf("10 [%s]\n", substr("hello", -10, 3));
	printf("11 [%s]\n", substr("hello", -10));
	printf("12 [%s]\n", substr("hello", 1, -2));
	printf("13 [%s]\n", substr("hello", 1, -4));
	printf("14 [%s]\n", substr("hello", -2, 100));
	printf("15 [%s]\n", substr("", 0));
	printf("16 [%s]\n", substr("", -1, 1));
	printf("17 [%s]\n", substr(substr(s, 1), 4, 3));
	printf("18 %d %d\n", substr(s, 1, 3) == "usr", strlen(substr(s, 16)));
	printf("19 [%s]\n", substr(s, -9223372036854775807 - 1, 2));
	printf("20 [%s]\n", substr(s, 2, 9223372036854775807));
	i = 3;
	printf("21 [%s]\n", substr(s, i, i + 1));
	@[substr(probename, 0, 3)] = count();
	exit(0);
}

END
{
	printa("22 [%s] %@d\n", @);
}
