/*
 * The constant NULL passed for a string parameter of a subroutine whose
 * body is C is read at address 0, as illumos's dtrace_strlen() of it:
 * "invalid address (0x0)" (the program was refused at load before,
 * the verifier finding a scalar read as memory).  strtok(NULL, ...) is
 * not that: it goes on with the saved string.
 */
/* @args: -q */

BEGIN
{
	printf("[%s]\n", strstr(NULL, "a"));
}

BEGIN
{
	printf("%d\n", index("abc", NULL));
}

BEGIN
{
	trace(basename(NULL));
}

BEGIN
{
	printf("[%s]\n", strtok("a b", " "));
	printf("[%s]\n", strtok(NULL, " "));
	exit(0);
}
