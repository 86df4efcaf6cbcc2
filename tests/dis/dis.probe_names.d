/* probename and probefunc are pseudo-instructions, filled in for each probe the clause matches */
syscall::read:entry,
syscall::write:entry
{
	printf("%s %s\n", probefunc, probename);
}
