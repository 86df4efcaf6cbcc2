/*
 * json() at strsize 16: a text of 15 bytes is whole, a longer one is cut
 * to 15 and answers what comes before the cut (NULL after it); an element
 * is cut to 15 bytes too: "[0]" seven times keeps five names, which stop
 * two arrays early.
 */
/* @args: -q */
#pragma D option strsize=16

BEGIN
{
	printf("[%s]\n", json("{\"a\":\"0123456\"}", "a"));
	printf("[%s]\n", json("[0,1,2,3,4,5,6]", "[6]"));
	printf("[%s]\n", json("{\"a\":1,\"bcdefgh\":2}", "a"));
	printf("%d\n", json("{\"a\":1,\"bcdefgh\":2}", "bcdefgh") == NULL);
	printf("[%s]\n", json("{\"abcdefghijklmn\"", "abcdefghijklmno") == NULL ? "null" : "?");
	printf("[%s]\n", json("[[[[[[[0]]]]]]]", "[0][0][0][0][0][0][0]"));
	exit(0);
}
