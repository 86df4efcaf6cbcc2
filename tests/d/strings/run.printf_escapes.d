/*
 * %S and %C escape as illumos pfprint_estr and pfprint_echr (strchr2esc):
 * C escapes, a space as itself, other bytes outside '!'..'~' in octal, and
 * the first NUL written as \0 (so a string shorter than its record ends with
 * it, also when the string was cut at strsize).  Flags and width apply to
 * the escaped text.
 */
#pragma D option quiet
#pragma D option strsize=16

BEGIN
{
	printf("[%S]\n", "a\tb\n\001");
	printf("[%S]\n", "");
	printf("[%S]\n", "q\"\\ \177\377\a\b\f\r\v");
	printf("[%S]\n", "123456789012345");
	printf("[%S]\n", "12345678901234567890");
	printf("[%12S][%-12S]\n", "x y", "\t");
	printf("[%C][%C][%C][%C][%3C][%-3C]\n", 'A', '\n', 0, 200, 'z', 'z');
	printf("[%s]\n", "a\tb");
	exit(0);
}
