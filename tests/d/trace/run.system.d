/*
 * system() runs its command when the consumer reads its record: its
 * output comes between what the clauses printed before and after it
 * (illumos flushes the output first).  Needs -w.
 */
/* @args: -q -w */
BEGIN
{
	printf("before\n");
	system("echo command %d says %s", 1, "hi");
	printf("after\n");
	system("printf 'no newline|'");
	printf("end\n");
	exit(0);
}
