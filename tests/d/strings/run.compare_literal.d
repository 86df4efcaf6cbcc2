/*
 * s == "literal" and s != "literal" compare the literal's words and its
 * NUL inline (dt_cg.c str_compare_literal), with no strcmp call: empty
 * strings, a NUL at the end of a word (7 characters), a word exactly
 * full (8, its NUL in the next), prefixes both ways, the literal on
 * either side, a NULL string (an empty one for a comparison), and at
 * strsize 16 a literal of 15 characters (its NUL the last byte) and one of
 * 16 (cut to 15, as every string of that size, and compared by strcmp).
 */
#pragma D option quiet
#pragma D option strsize=16

BEGIN
{
	e = "";
	a7 = "abcdefg";
	a8 = "abcdefgh";
	a9 = "abcdefghi";
	printf("%d %d %d %d\n", e == "", e != "", "" == e, e == "a");
	printf("%d %d %d %d\n", a7 == "abcdefg", a7 == "abcdefgh", a7 == "abcdef", a7 != "abcdefg");
	printf("%d %d %d %d\n", a8 == "abcdefgh", a8 == "abcdefg", a8 == "abcdefghi", a8 != "abcdefgH");
	printf("%d %d %d\n", a9 == "abcdefghi", a9 == "abcdefgh", "abcdefghi" == a9);
	printf("%d %d\n", probename == "BEGIN", probename != "BEGIN");
	printf("%d %d\n", strjoin(a8, a8) == "abcdefghabcdefgh", strjoin(a8, a8) == "abcdefghabcdefg");
	printf("%d %d\n", strchr("abc", 'z') == "", strchr("abc", 'z') == "x");
	f = "abcdefghijklmno";
	printf("%d %d %d\n", f == "abcdefghijklmno", f == "abcdefghijklmn", f == "abcdefghijklmnO");
	printf("%d %d\n", f == "abcdefghijklmnop", f != "abcdefghijklmnop");
	exit(0);
}
