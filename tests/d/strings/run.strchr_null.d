/*
 * strstr(), strchr() and strrchr() are NULL when they find nothing; using
 * the NULL string is reading address 0, as in illumos: the clause stops
 * with "invalid address (0x0)", the probe's other clauses run.
 */
/* @args: -q */

BEGIN
{
	printf("before\n");
	printf("[%s]\n", strchr("abc", 'z'));
	printf("not reached\n");
}

BEGIN
{
	printf("[%s]\n", strstr("abc", "abcd"));
}

BEGIN
{
	trace(strrchr("", 'a'));
}

BEGIN
{
	printf("[%s] %d\n", strstr("", ""), strlen(strstr("", "")));
	exit(0);
}
