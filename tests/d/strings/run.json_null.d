/*
 * json() finding nothing is NULL, and using the NULL string is reading
 * address 0, as in illumos (dtrace_dif_subr returns 0, the action reads
 * it): the clause stops with "invalid address (0x0)", the probe's other
 * clauses run.  A NULL argument is read at 0 too, the text or the element.
 */
/* @args: -q */

BEGIN
{
	printf("before\n");
	trace(json("{\"a\": 1}", "b"));
	printf("not reached\n");
}

BEGIN
{
	printf("[%s]\n", json("{\"a\": \"unterminated}", "a"));
}

BEGIN
{
	printf("[%s]\n", json(NULL, "a"));
}

BEGIN
{
	printf("[%s]\n", json("{\"a\": 1}", NULL));
}

BEGIN
{
	printf("[%s]\n", json("{\"a\": 1}", "a"));
	exit(0);
}
