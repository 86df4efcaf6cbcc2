/* commit(): what was speculated prints after the commit clause, in the order recorded: integers, strings (empty too), trace(); the clauses between print at once */
/* @args: -q */
BEGIN
{
	self->spec = speculation();
	printf("speculation %d\n", self->spec);
}

BEGIN
{
	speculate(self->spec);
	printf("speculated %d %s\n", 42, "forty-two");
	self->after = 1; /* a variable assigned after speculate() is assigned */
}

BEGIN
{
	printf("not speculated, after = %d\n", self->after);
}

BEGIN
{
	speculate(self->spec);
	printf("empty [%s] ", "");
	trace(-7);
	printf("\n");
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	printf("after the commit\n");
	exit(0);
}
