/* an id above nspec is an illegal operation, as illumos's dtrace_speculation_buffer (no DIF offset): speculate() abandons its clause, commit() and discard() too; -1 is above; 0 is not an error */
/* @args: -q */
BEGIN
{
	speculate(2);
	printf("not printed\n");
}

BEGIN
{
	commit(-1);
}

BEGIN
{
	discard(0);
	printf("discard(0) is nothing\n");
}

BEGIN
{
	self->x = 5;
	discard(self->x);
	printf("not printed either\n");
}

BEGIN
{
	printf("next clause\n");
	exit(0);
}
