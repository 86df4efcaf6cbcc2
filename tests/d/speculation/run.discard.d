/* discard(): nothing speculated prints; the slot stays busy until the consumer cleans it, so speculation() fails there (nspec 1) */
/* @args: -q */
BEGIN
{
	self->spec = speculation();
	printf("speculation %d\n", self->spec);
}

BEGIN
{
	speculate(self->spec);
	printf("never printed %d\n", 1);
}

BEGIN
{
	discard(self->spec);
}

BEGIN
{
	speculate(self->spec); /* discarded: records nothing */
	printf("never printed %d\n", 2);
}

BEGIN
{
	commit(self->spec); /* discarded already: nothing */
}

BEGIN
{
	printf("busy: %d\n", speculation());
}

END
{
	printf("end\n");
}

BEGIN
{
	exit(0);
}
