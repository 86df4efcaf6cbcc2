/*
 * strtok(s, delim) and strtok(NULL, delim): the saved string is per CPU
 * and outlives the clause (illumos keeps it for the probe firing's other
 * clauses); at the end strtok() is NULL, which faults when used (an
 * invalid address, 0, as in illumos), and stays NULL.  The delimiters may
 * change from call to call.
 */
/* @args: -q */

BEGIN
{
	printf("[%s]", strtok("/usr//lib/", "/"));
	printf(" [%s]\n", strtok(NULL, "/"));
}

BEGIN
{
	printf("[%s]\n", strtok(NULL, "/"));
}

BEGIN
{
	printf("[%s]\n", strtok(0, "/"));
}

BEGIN
{
	printf("[%s]", strtok(",a;b,c", ",;"));
	printf(" [%s]", strtok(NULL, ","));
	printf(" [%s]", strtok(NULL, ","));
	printf(" [%s]\n", strtok("abc", ""));
	exit(0);
}
