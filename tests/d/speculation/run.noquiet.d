/* not quiet: a committed record prints as any record (CPU, probe, data) after the commit clause's own line; the speculate clause prints nothing when it fires */
BEGIN
{
	self->spec = speculation();
}

BEGIN
{
	speculate(self->spec);
	trace(123);
	trace("str");
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	exit(0);
}
