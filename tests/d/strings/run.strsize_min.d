/*
 * strsize below 8 is 8, as illumos dtrace_state_go clamps it to
 * dtrace_strsize_min: strings hold 7 bytes.
 */
#pragma D option quiet
#pragma D option strsize=4

BEGIN
{
	printf("[%s] %d [%s]\n", "abcdefghijklmnop", strlen("abcdefghijklmnop"),
	    strjoin("abcd", "efgh"));
	exit(0);
}
