/*
 * strtok(s, delim) and strtok(NULL, delim): the saved string outlives the
 * clause but not the probe firing (illumos keeps it in the firing's
 * machine state); at the end strtok() is NULL, which faults when used (an
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

/* another firing: the saved string is gone, as in illumos */
END
{
	printf("[%s]\n", strtok(NULL, "/"));
}
