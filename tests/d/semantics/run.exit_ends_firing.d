/*
 * exit() ends the firing: the clauses after it for the same probe do not
 * run (illumos: dtrace_probe checks the activity, DRAINING, before each
 * ECB), nor do other probes' clauses; the rest of the clause that called
 * it does.  END still runs, all of its clauses: an exit() in END leaves
 * the activity (COOLDOWN), and the last exit() record read gives the
 * status (dtrace(1)'s chewrec): 5, not 3.
 * @exit: 5
 */
#pragma D option quiet

BEGIN
{
	printf("first\n");
	exit(3);
	printf("rest of the clause\n");
}

BEGIN
{
	printf("after exit: must not print\n");
}

profile-1000hz
{
	printf("profile after exit: must not print\n");
}

END
{
	printf("end\n");
	exit(5);
}

END
{
	printf("end after exit(5)\n");
}
